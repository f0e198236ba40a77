// One copy of each piece of module state per process. The Node server loads server/* through
// tsx and Next's build bundles its own copy of the same modules, so a module-level `new Map()`
// would exist twice: a cache invalidated in one copy and read in the other, a limiter whose
// fallback flag the other copy never sees. Every piece of module state is made through
// `processSingleton` instead, kept on globalThis under its name, so both copies share it.
// tests/unit/process-singleton.unit.test.ts fails when module state is made any other way.

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
