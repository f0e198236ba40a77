// npm run bench: figures, each against a baseline measured in the same run (never a test).
//   tsx scripts/bench.ts [--duration S] [--connections N] [--rounds R] [--only shortlink|hosted|operations|rules|api|ratelimit|analytics|bundle|lists|images|webhooks|spool|writepath|growth|soak|hostile|cluster] [--bundle-scans N] [--soak-seconds S] [--fill N] [--replay-scans N] [--cluster-seconds S] [--cluster-rate R] [--cluster-outage S]
// Each section is a file of scripts/bench/ (its figures described at its top), run in a process
// of its own; scripts/bench/common.ts holds what they share (options, wrk, the baseline server).
// Cluster (PostgreSQL only): three instances behind nginx at a fixed rate (scripts/bench/cluster.ts).
import { spawnSync } from "node:child_process";
import { analytics } from "./bench/analytics";
import { api } from "./bench/api";
import { bundle } from "./bench/bundle";
import { growth } from "./bench/growth";
import { images } from "./bench/images";
import { lists } from "./bench/lists";
import { shortlink } from "./bench/shortlink";
import { soak } from "./bench/soak";
import { hosted } from "./bench/hosted";
import { operations } from "./bench/operations";
import { rateLimiter } from "./bench/ratelimit";
import { rules } from "./bench/rules";
import { spool } from "./bench/spool";
import { webhooks } from "./bench/webhooks";
import { writePath } from "./bench/writepath";
import { buildOnce, clusterOutage, clusterRate, clusterSeconds, duration } from "./bench/common";
import { cluster } from "./bench/cluster";
import { hostile } from "./bench/hostile";

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : "";
const SECTIONS: Record<string, () => Promise<void>> = {
  shortlink,
  hosted,
  operations,
  rules,
  api,
  ratelimit: rateLimiter,
  analytics,
  bundle,
  lists,
  images,
  webhooks,
  spool,
  writepath: writePath,
  growth,
  soak,
  hostile: () => (buildOnce(), hostile(Math.min(duration, 10))),
  cluster: () => (buildOnce(), cluster(clusterSeconds, clusterRate, clusterOutage)),
};
if (only) {
  await SECTIONS[only]();
} else {
  // Each section in a process of its own: the database client is made once per process.
  const figures: { name: string; value: string; goal: string; met: boolean }[] = [];
  for (const section of Object.keys(SECTIONS)) {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "scripts/bench.ts", ...process.argv.slice(2), "--only", section],
      { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
    );
    for (const line of run.stdout.split("\n")) {
      if (line.startsWith("BENCH-FIGURE ")) figures.push(JSON.parse(line.slice("BENCH-FIGURE ".length)));
      else process.stdout.write(`${line}\n`);
    }
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
  const width = Math.max(...figures.map((f) => f.name.length));
  console.log(`\n${"figure".padEnd(width)}  ${"measured".padEnd(40)}  ${"goal".padEnd(18)}  met`);
  for (const f of figures)
    console.log(
      `${f.name.padEnd(width)}  ${f.value.padEnd(40)}  ${f.goal.padEnd(18)}  ${f.goal === "—" ? "" : f.met ? "yes" : "NO"}`,
    );
}
process.exit(0);
