// Hosted pages (issue 44): a recorded `/q/<code>` of a `page` code (200 with its page of links)
// against a recorded `/q/<code>` of a `url` code (302) on the same instance, the one users run
// (pages on, after a page was rendered), loaded by wrk in alternating rounds. Goal: ≥ 0.8.
import {
  alternate,
  backendName,
  benchDatabase,
  figure,
  GOAL_INSTANCE,
  INSTANCES,
  load,
  loadRow,
  ratioOf,
  rounds,
  duration,
  connections,
  USER_AGENT,
} from "./common";
import { startServer } from "../harness";

/** A page as large as people make them: a title and 10 links. */
const CONTENT = {
  title: "Café Linden — menus, bookings and opening hours",
  links: Array.from({ length: 10 }, (_, i) => ({
    label: `Link number ${i + 1}`,
    url: `https://example.com/page/${i}`,
  })),
};

export async function hosted() {
  const { database, db, withCode } = await benchDatabase();
  const { record: url } = await withCode("bench-url@example.com", "Redirect");
  const { record: page } = await withCode("bench-page@example.com", "Page", {
    type: "page",
    destination_url: null,
    content: CONTENT,
  });
  const backend = backendName(database.url);
  const instance = INSTANCES.find((i) => i.name === GOAL_INSTANCE)!;
  const server = await startServer({
    DATABASE_URL: database.url,
    VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET,
    SERVE_PAGES: instance.servePages,
  });
  try {
    await (await fetch(`${server.base}/login`)).arrayBuffer(); // a page rendered first
    const answer = await fetch(`${server.base}/q/${page.code}`, { headers: { "user-agent": USER_AGENT } });
    const bytes = (await answer.arrayBuffer()).byteLength;
    if (answer.status !== 200) throw new Error(`/q of the page code answered ${answer.status}`);
    console.log(
      `\nHosted page: ${connections} connections, ${rounds} rounds of ${duration} s per load, on ${backend}, ${GOAL_INSTANCE}; the page ${bytes} bytes`,
    );
    const { floor, series } = await alternate(
      { name: "url code (302)", run: (seconds) => load(`${server.base}/q/${url.code}`, USER_AGENT, seconds) },
      [{ name: "page code (200)", run: (seconds) => load(`${server.base}/q/${page.code}`, USER_AGENT, seconds) }],
    );
    console.log(loadRow("/q/<code> of a url code, recorded", floor));
    console.log(loadRow("/q/<code> of a page code, recorded", series[0].load));
    const ratio = ratioOf(series[0].load, floor);
    const range = `${Math.min(...series[0].ratios).toFixed(2)}–${Math.max(...series[0].ratios).toFixed(2)}`;
    figure(
      `/q page code ÷ /q url code, ${GOAL_INSTANCE} (${backend})`,
      `${ratio.toFixed(2)} (${range})`,
      "≥ 0.80",
      ratio >= 0.8,
    );
    figure(`/q page code p99 (${backend})`, `${series[0].load.p99} ms`, "< 10 ms", series[0].load.p99 < 10);
  } finally {
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
