// One copy of each piece of module state per process. The Node server loads server/* through
// tsx and Next's build bundles its own copy of the same modules, so a module-level `new Map()`
// would exist twice: a cache invalidated in one copy and read in the other, a limiter whose
// fallback flag the other copy never sees. Every piece of module state is made through
// `processSingleton` instead, kept on globalThis under its name, so both copies share it.
// tests/unit/process-singleton.unit.test.ts fails when module state is made any other way.
//
// Why not load server/* once instead (issue 40, measured 2026-11-26): after /, /login and /docs
// the module ran three times (tsx and two bundled copies), and 27 of 46 names were asked for again
// by a bundled copy. Next can be made to load server/* from Node (a stub package listed in
// serverExternalPackages): one copy, every test passed, but peak memory was the same within
// noise (381 against 391 MB), the build then needs tsx, Next's file tracing of server/* breaks,
// React's `cache` in auth.ts would no longer be the server build's, and `next dev` either
// reloads nothing in server/* or brings the copies back. So the calls stay. What they hold, and
// what two copies would break:
// - resources (12: connections, logger, metrics, mail, the spool's file lock, the background
//   thread, the image renderer, the dispatcher, the live copy): leaks, double registration, locks;
// - timers (3: activity sweep, scan retention, idempotency sweep): work done twice;
// - shared mutable state (15: the scan buffer, rate limits, key loader and last-used, the code
//   cache, /v1 answers, draining, configuration, ids, writer turns, the heavy-body gate, ZIP
//   queues, Redis scripts): wrong answers;
// - pure caches (12: secrets, statement names, fonts, logos, the decoder, the country database,
//   validation, migrations, the document, memoize): memory only.
// Worker threads have a globalThis of their own: each name is per thread as well.

const registry = ((globalThis as { __qrProcessState?: Map<string, unknown> }).__qrProcessState ??= new Map<
  string,
  unknown
>());

/** The process's one `name`, made by `init` the first time any copy of any module asks. */
export function processSingleton<T>(name: string, init: () => T): T {
  if (!registry.has(name)) registry.set(name, init());
  return registry.get(name) as T;
}

/** The names made so far (for the test of the rule above). */
export const processStateNames = (): string[] => [...registry.keys()];
