// "Try it out" on /docs works wherever the page was opened: a second server on another free
// port, started with no APP_URL or NEXTAUTH_URL naming it, serves the reference; authorized with
// a real personal key, Swagger UI's Execute lists (200) and creates (201) through that server,
// and Execute again creates a second code: the Idempotency-Key field is not pre-filled with a
// fixed example, and each request left without one gets a fresh key (issue 39).
import { expect, test, type Page } from "@playwright/test";
import { freePort, startServer, type RunningServer } from "../scripts/harness";
import { generateKey } from "../server/keys/apiKeys";
import { account } from "./helpers";

/** Expands one operation of the reference, presses "Try it out" then "Execute" (or, `again`, "Clear" then "Execute"), and returns the status Swagger UI shows. */
async function execute(page: Page, method: "get" | "post", path: string, again = false) {
  const operation = page.locator(`.opblock-${method}`, {
    has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
  });
  if (again) {
    await operation.getByRole("button", { name: "Clear" }).click();
  } else {
    await operation.locator(".opblock-summary").click();
    await operation.getByRole("button", { name: "Try it out" }).click();
  }
  await operation.getByRole("button", { name: "Execute" }).click();
  const status = operation.locator(".live-responses-table .response .response-col_status");
  await expect(status).toHaveText(/^\d{3}/, { timeout: 15_000 });
  return {
    status: (await status.textContent())!.trim().slice(0, 3),
    body: operation.locator(".live-responses-table .response .response-col_description pre").first(),
  };
}

test("Swagger UI's Try it out on a server of another port without APP_URL: list 200, create 201", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const port = await freePort();
  // The same database as the suite's server; no configured address, so the server knows only
  // the requests it gets. NEXTAUTH_URL is set but empty, which counts as unset (next-auth,
  // which reads it itself, used to fail every page on it).
  let server: RunningServer | undefined;
  try {
    server = await startServer(
      { APP_URL: undefined, NEXTAUTH_URL: "", BASE_URL: undefined, SHORT_BASE_URL: undefined },
      port,
    );
    const user = await account("docs-try", "pro", "Dee Docs");
    const { key } = await generateKey(user.id, "personal");

    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") blocked.push(message.text());
    });
    await page.goto(`${server.base}/docs`);
    await expect(page.locator(".opblock").first()).toBeVisible({ timeout: 30_000 });
    // The document's server is the absolute /v1 of the origin the page came from.
    await expect(page.getByRole("combobox", { name: "Server" })).toHaveValue(`${server.base}/v1`);

    await page.locator(".auth-wrapper .authorize").click();
    const dialog = page.locator(".modal-ux");
    await dialog.locator("input").first().fill(key);
    await dialog.getByRole("button", { name: "Apply credentials" }).click();
    await dialog.getByRole("button", { name: "Close", exact: true }).click();

    const list = await execute(page, "get", "/qrcodes");
    expect(list.status).toBe("200");
    await expect(list.body).toContainText('"qrcodes"');
    const created = await execute(page, "post", "/qrcodes");
    expect(created.status).toBe("201");
    await expect(created.body).toContainText('"qr_id"');
    // The Idempotency-Key field is empty: nothing fixed is sent twice.
    await expect(page.locator('.opblock-post tr[data-param-name="Idempotency-Key"] input').first()).toHaveValue("");
    const first = JSON.parse((await created.body.textContent())!) as { created: { qr_id: string }[] };
    const second = await execute(page, "post", "/qrcodes", true);
    expect(second.status).toBe("201");
    const next = JSON.parse((await second.body.textContent())!) as { created: { qr_id: string }[] };
    expect(next.created[0].qr_id).not.toBe(first.created[0].qr_id);
    await page.screenshot({ path: "e2e/screenshots/docs-try-it.png", fullPage: true });
    expect(blocked.filter((text) => /Content Security Policy|Failed to fetch/i.test(text))).toEqual([]);
    await page.close();
  } finally {
    await server?.stop();
  }
});
