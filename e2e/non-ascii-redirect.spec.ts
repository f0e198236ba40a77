// A short link whose destination is written with non-ASCII characters (issue 37, point 2):
// Chromium follows it to the right place, host in punycode, the query arriving as UTF-8
// (`%C3%BC`, not Latin-1's `%FC`), both for a code created now and for a row stored raw before
// the serialisation rule. Chromium refused the raw bytes before (ERR_INVALID_REDIRECT). The
// destination is a server of the test's own, which Chromium reaches under the name
// `bücher.example` through a host-resolver rule.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { account, shot } from "./helpers";

test("a real browser follows the short link of a non-ASCII destination to the right place, the query as UTF-8", async ({
  request,
  baseURL,
}) => {
  const arrived: { host: string; url: string }[] = [];
  const destination = createServer((req, res) => {
    arrived.push({ host: req.headers.host ?? "", url: req.url ?? "" });
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end("<!doctype html><html lang=en><title>Arrived</title><h1>Arrived at the bookshop</h1></html>");
  });
  await new Promise<void>((resolve) => destination.listen(0, "127.0.0.1", resolve));
  const port = (destination.address() as AddressInfo).port;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      `--host-resolver-rules=MAP xn--bcher-kva.example 127.0.0.1`,
    ],
  });
  try {
    const user = await account("non-ascii", "pro", "Bücher Freund");
    const { key } = await generateKey(user.id, "personal");
    const created = await request.post("/v1/dynqrcodes", {
      headers: { "x-api-key": key },
      data: { destination_url: `http://bücher.example:${port}/ä?q=ü`, name: "Bücher" },
    });
    expect(created.status()).toBe(201);
    const { code, destination_url } = (await created.json()).created[0];
    expect(destination_url).toBe(`http://xn--bcher-kva.example:${port}/%C3%A4?q=%C3%BC`);
    // A row of before: the raw text, as the domain stores what it is given.
    const [old] = await createDynamicCodes({ userId: user.id, library: { kind: "personal", userId: user.id } }, [
      { name: "Alt", destination_url: `http://bücher.example:${port}/ö?q=ü` },
    ]);

    const page = await browser.newPage();
    await page.goto(`${baseURL}/q/${code}`);
    await expect(page.getByRole("heading", { name: "Arrived at the bookshop" })).toBeVisible();
    expect(new URL(page.url()).search).toBe("?q=%C3%BC");
    await shot(page, "non-ascii-destination");
    await page.goto(`${baseURL}/q/${old.code}`);
    await expect(page.getByRole("heading", { name: "Arrived at the bookshop" })).toBeVisible();
    expect(arrived.filter((a) => !a.url.startsWith("/favicon"))).toEqual([
      { host: `xn--bcher-kva.example:${port}`, url: "/%C3%A4?q=%C3%BC" },
      { host: `xn--bcher-kva.example:${port}`, url: "/%C3%B6?q=%C3%BC" },
    ]);
  } finally {
    await browser.close();
    destination.close();
  }
});
