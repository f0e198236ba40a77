// Failure counters that slow down guessing (log-ins now; invalid API keys and key
// generation later). In process: each instance counts its own.
type Window = { failures: number[] };

export class FailureThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait before the next attempt for this key, 0 when it may go ahead. */
  retryAfter(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window) return 0;
    window.failures = window.failures.filter((t) => now - t < this.windowMs);
    if (window.failures.length === 0) this.windows.delete(key);
    if (window.failures.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((window.failures[0] + this.windowMs - now) / 1000));
  }

  fail(key: string, now = Date.now()): void {
    const window = this.windows.get(key) ?? { failures: [] };
    window.failures.push(now);
    this.windows.set(key, window);
  }

  clear(key: string): void {
    this.windows.delete(key);
  }
}

/** Log-ins: 5 failures per account or 20 per address in 15 minutes, then wait. */
export const loginByAccount = new FailureThrottle(5, 15 * 60_000);
export const loginByAddress = new FailureThrottle(20, 15 * 60_000);
