// Several test files in one node:test process (tests/schedule.ts): each loads inside a suite
// named for it, so that its top-level tests and hooks are that suite's, run and ended before the
// next file's. The process's start (tsx, then the server modules that tests/helpers.ts loads,
// about 1.4 CPU-seconds) is paid once for the group instead of once per file.
import path from "node:path";
import { describe } from "node:test";
// The shared modules whose own top-level hooks (closing Redis, removing a folder) belong to the
// whole process: loaded at the root first, or the first file to import them would own them.
import "./helpers";
import "./cli-runner";

for (const file of process.argv.slice(2))
  describe(file, async () => {
    await import(path.resolve(file));
  });
