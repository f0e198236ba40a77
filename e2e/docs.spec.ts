// /docs renders every route of the OpenAPI document with the bundled reference UI.
import { expect, test } from "@playwright/test";

test("/docs shows getting started and every /v1 route", async ({ page, request }) => {
  const doc = (await (await request.get("/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ path, method })),
  );
  expect(operations.length).toBeGreaterThanOrEqual(16);
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Getting started" })).toBeVisible();
  await expect(page.locator("pre.code-block")).toContainText("x-api-key");
  // Swagger UI's bundle (1.4 MB) takes a while to parse on a busy machine.
  await expect(page.locator(".opblock").first()).toBeVisible({ timeout: 30_000 });
  for (const { path, method } of operations) {
    await expect(
      page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`),
      `${method.toUpperCase()} ${path}`,
    ).toHaveCount(1);
  }
});
