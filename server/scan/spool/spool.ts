// The spool's files: a directory of one process (lock.ts), append-only segments (segments.ts)
// of framed records (framing.ts), and a checkpoint (checkpoint.ts): the position up to which
// every record is known to be in the database. Each process starts a segment of its own, so a
// torn record left by a killed predecessor is never written after. Segments behind the
// checkpoint are removed. While the records a predecessor left are being replayed, the
// checkpoint follows the replay only: the live segments after them are kept until it is done,
// so that a second crash during the replay loses neither.
import fs from "node:fs";
import path from "node:path";
import { readCheckpoint, writeCheckpoint } from "./checkpoint";
import { frame, HEADER_BYTES, unframe } from "./framing";
import { lockDirectory, SpoolInUseError, unlockDirectory } from "./lock";
import { offsetOf, positionOf, readAt, SEGMENT, segmentFile, segmentOf, type Position } from "./segments";

/** After a failed write, the next attempt to open a segment waits this long. */
const REOPEN_MS = 1000;

export type SpoolOptions = {
  /** 0: `sync()` is awaited before each answer; else the segment is synced this often. */
  fsyncMs: number;
  segmentBytes?: number;
  /**
   * The checkpoint is written at most this often (default 0: at every report). A checkpoint
   * behind the database only means more to replay after a crash, and the replay skips
   * stored scans: writing it after every batch cost the redirects' thread a rename each time.
   */
  checkpointMs?: number;
  /** A sync or checkpoint that failed (an append that fails returns null, its reason in lastError). */
  onError: (error: unknown, what: string) => void;
  /** A directory that could not be opened at start, opened later, holds records to replay. */
  onLeftovers?: () => void;
  /** A torn or damaged record: reading the segment stops there. */
  onTorn: (file: string, offset: number, reason: string) => void;
};

export type Leftover = { segment: number; records: { payload: Buffer; end: Position }[] };

export class Spool {
  private fd: number | null = null;
  private segment = 0;
  private size = 0;
  private dirty = false;
  private rotated: Promise<void> = Promise.resolve();
  private syncing: Promise<void> | null = null;
  private syncQueued: Promise<void> | null = null;
  private locked = false;
  private reopenAt = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Segments on disk, by number. */
  private segments = new Set<number>();
  /** Segments a predecessor left, to replay, and where the replay starts. */
  private leftover: number[] = [];
  private replayFrom: Position = 0;
  /** Every live record up to here is in the database. */
  private live: Position = 0;
  private checkpointAt = 0;
  private checkpointTimer: NodeJS.Timeout | null = null;
  /** False from a failed write or open until an append succeeds again. */
  writable = false;
  /** Why the last write or open failed. */
  lastError: unknown = null;

  constructor(
    readonly dir: string,
    private readonly options: SpoolOptions,
  ) {}

  /**
   * Takes the directory and starts a segment. A directory in use by a live process throws
   * SpoolInUseError; one that cannot be written leaves the spool unwritable (lastError says
   * why; appends try again later).
   * Returns whether a predecessor left records to replay.
   */
  open(): boolean {
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      lockDirectory(this.dir);
      this.locked = true;
      const checkpoint = readCheckpoint(this.dir);
      const found = fs
        .readdirSync(this.dir)
        .map((name) => SEGMENT.exec(name)?.[1])
        .filter((n) => n !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
      for (const n of found) {
        if (n < segmentOf(checkpoint)) fs.rmSync(path.join(this.dir, segmentFile(n)), { force: true });
        else {
          this.segments.add(n);
          this.leftover.push(n);
        }
      }
      this.replayFrom = checkpoint;
      this.startSegment(Math.max(segmentOf(checkpoint), ...found) + 1);
      this.live = positionOf(this.segment, 0);
      this.writable = true;
    } catch (error) {
      if (error instanceof SpoolInUseError) throw error;
      this.lastError = error;
      this.reopenAt = Date.now() + REOPEN_MS;
      return false;
    }
    if (this.options.fsyncMs > 0 && !this.timer)
      this.timer = setInterval(() => void this.sync(), this.options.fsyncMs).unref();
    return this.leftover.length > 0;
  }

  private startSegment(n: number): void {
    this.fd = fs.openSync(path.join(this.dir, segmentFile(n)), "ax", 0o600);
    this.segment = n;
    this.size = 0;
    this.segments.add(n);
    // The new file's name must survive a machine crash too.
    fs.open(this.dir, "r", (error, dirFd) => !error && fs.fsync(dirFd, () => fs.close(dirFd, () => undefined)));
  }

  /** After a failure: a new segment (the failed one may end in a torn record), not before REOPEN_MS. */
  private reopen(): boolean {
    if (Date.now() < this.reopenAt) return false;
    this.reopenAt = Date.now() + REOPEN_MS;
    if (!this.locked) {
      try {
        if (this.open()) this.options.onLeftovers?.();
        return this.fd !== null;
      } catch (error) {
        this.lastError = error; // taken by another process meanwhile: this one stays in memory
        return false;
      }
    }
    try {
      this.startSegment(this.segment + 1);
      return true;
    } catch (error) {
      this.lastError = error;
      return false;
    }
  }

  /** Appends the records in one write; the position after the last, or null when it failed. */
  append(payloads: Buffer[]): Position | null {
    if (this.fd === null && !this.reopen()) return null;
    const data = frame(payloads);
    try {
      const written = fs.writeSync(this.fd!, data);
      if (written !== data.length)
        throw Object.assign(new Error(`short write: ${written} of ${data.length} bytes`), { code: "ENOSPC" });
    } catch (error) {
      this.lastError = error;
      this.closeSegment();
      this.writable = false;
      this.reopenAt = Date.now() + REOPEN_MS;
      return null;
    }
    this.size += data.length;
    this.dirty = true;
    this.writable = true;
    const end = positionOf(this.segment, this.size);
    if (this.size >= (this.options.segmentBytes ?? 16 * 1024 * 1024)) {
      this.closeSegment();
      try {
        this.startSegment(this.segment + 1);
      } catch (error) {
        this.lastError = error; // the next append tries again
      }
    }
    return end;
  }

  /** Closes the current segment once it is synced. */
  private closeSegment(): void {
    const fd = this.fd;
    if (fd === null) return;
    this.fd = null;
    const previous = this.rotated;
    this.rotated = new Promise<void>((resolve) => fs.fsync(fd, () => fs.close(fd, () => previous.then(resolve))));
  }

  /**
   * Resolves once everything appended so far is on the disk. One fsync at a time: the turns
   * that append while one runs share the next (group commit), instead of one each.
   */
  sync(): Promise<void> {
    if (this.syncing) return (this.syncQueued ??= this.syncing.then(() => ((this.syncQueued = null), this.syncNow())));
    return this.syncNow();
  }

  private syncNow(): Promise<void> {
    const fd = this.fd;
    if (fd === null || !this.dirty) return this.rotated;
    this.dirty = false;
    const synced = new Promise<void>((resolve) =>
      fs.fsync(fd, (error) => {
        if (error && error.code !== "EBADF") this.options.onError(error, "sync");
        resolve();
      }),
    );
    return (this.syncing = Promise.all([this.rotated, synced]).then(() => {
      this.syncing = null;
    }));
  }

  /** The position after the last record appended (where the next one starts, or its segment's end). */
  end(): Position {
    return positionOf(this.segment, this.size);
  }

  /**
   * This process's own records from `from` on (about `bytes` of them, at least one), for a
   * backlog that waits here rather than in memory; `next` is where the following read starts.
   * The end of a segment before the current one (perhaps a torn record, after a failed write)
   * leads to the next segment; nothing is read past the last append.
   */
  async read(from: Position, bytes: number): Promise<{ records: Leftover["records"]; next: Position }> {
    let [segment, offset] = [segmentOf(from), offsetOf(from)];
    for (;;) {
      for (let size = bytes; ;) {
        const data = await readAt(path.join(this.dir, segmentFile(segment)), offset, size);
        const { records, torn } = unframe(data);
        if (records.length > 0)
          return {
            records: records.map((r) => ({ payload: r.payload, end: positionOf(segment, offset + r.end) })),
            next: positionOf(segment, offset + records[records.length - 1].end),
          };
        // A record longer than the read: read it whole.
        if (torn?.reason !== "short payload" || data.length < size) break;
        size = HEADER_BYTES + data.readUInt32LE(4);
      }
      const later = [...this.segments].filter((n) => n > segment && n <= this.segment).sort((a, b) => a - b)[0];
      if (segment >= this.segment || later === undefined) return { records: [], next: positionOf(segment, offset) };
      [segment, offset] = [later, 0];
    }
  }

  /** Every live record up to `position` is in the database. */
  written(position: Position): void {
    if (position <= this.live) return;
    this.live = position;
    if (this.leftover.length > 0 || this.checkpointTimer) return;
    const wait = this.checkpointAt + (this.options.checkpointMs ?? 0) - Date.now();
    if (wait <= 0) this.persistLive();
    else this.checkpointTimer = setTimeout(() => this.persistLive(), wait).unref();
  }

  private persistLive(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    this.checkpointAt = Date.now();
    if (this.leftover.length === 0) this.persist(this.live);
  }

  /** The records a predecessor left, segment by segment from the checkpoint. */
  async *leftovers(): AsyncGenerator<Leftover> {
    for (const segment of this.leftover) {
      const file = path.join(this.dir, segmentFile(segment));
      const from = segment === segmentOf(this.replayFrom) ? offsetOf(this.replayFrom) : 0;
      const { records, torn } = unframe(await fs.promises.readFile(file), from);
      if (torn) this.options.onTorn(file, torn.offset, torn.reason);
      yield { segment, records: records.map((r) => ({ payload: r.payload, end: positionOf(segment, r.end) })) };
    }
  }

  /** Every leftover record up to `position` is in the database. */
  replayed(position: Position): void {
    this.persist(position);
  }

  /** The leftovers are all in the database: the checkpoint follows the live records from now on. */
  replayDone(): void {
    this.leftover = [];
    this.persistLive();
  }

  /** Writes the checkpoint, then removes the segments behind it. */
  private persist(position: Position): void {
    try {
      writeCheckpoint(this.dir, position);
      for (const n of this.segments) {
        if (n >= segmentOf(position) || n === this.segment) continue;
        fs.rmSync(path.join(this.dir, segmentFile(n)), { force: true });
        this.segments.delete(n);
      }
    } catch (error) {
      this.options.onError(error, "checkpoint");
    }
  }

  /** On a clean exit: synced, checkpointed, closed, the directory free for the next process. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    // live stays 0 when open() failed after taking the lock: the checkpoint on disk is kept.
    if (this.locked && this.live > 0) this.persistLive();
    if (this.fd !== null) {
      try {
        fs.fsyncSync(this.fd);
        fs.closeSync(this.fd);
      } catch {
        // the records are what they are; the next process reads what is whole
      }
      this.fd = null;
    }
    if (this.locked) unlockDirectory(this.dir);
    this.locked = false;
  }
}
