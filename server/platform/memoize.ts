import { processSingleton } from "./process-singleton";

/**
 * `compute` of one string, remembering the last `size` answers (the oldest forgotten first),
 * in one store per process named `name` (server/platform/process-singleton.ts). For the scan writer's
 * per-agent and per-address work: most scans come from a few thousand distinct agents and
 * visitors. An answer of `undefined` is not remembered (null is).
 */
export function memoize<T>(name: string, compute: (key: string) => T, size = 5_000): (key: string) => T {
  const known = processSingleton(`memoize.${name}`, () => new Map<string, T>());
  return (key) => {
    const value = known.get(key);
    if (value !== undefined) return value;
    if (known.size >= size) known.delete(known.keys().next().value!);
    const computed = compute(key);
    known.set(key, computed);
    return computed;
  };
}
