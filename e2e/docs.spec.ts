import { expect, test } from "./fixtures";

test.describe("API reference at /docs", () => {
  test("renders each surface with the locally served Redoc bundle, fetching nothing from elsewhere", async ({
    page,
    baseURL,
  }) => {
    // Anything fetched from another origin would arrive as a response; the CSP blocks Redoc's CDN logo.
    const foreign: string[] = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (!["data:", "blob:"].includes(url.protocol) && url.origin !== baseURL) foreign.push(response.url());
    });

    const docs = await page.goto("/docs?api=admin");
    expect(docs?.headers()["content-security-policy"]).toContain("default-src 'self'");
    await expect(page.getByTestId("redoc").getByRole("heading", { name: "Sesame admin API" })).toBeVisible();
    await expect(page.getByTestId("redoc").getByRole("heading", { name: "Status page" })).toBeVisible();

    await page.getByRole("link", { name: "health", exact: true }).click();
    await expect(page).toHaveURL(/api=health/);
    await expect(page.getByTestId("redoc").getByRole("heading", { name: "Readiness" })).toBeVisible();
    expect(foreign).toEqual([]);
  });

  test("the home page links to the API reference", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Sesame" })).toBeVisible();
    await page.getByRole("link", { name: "API reference" }).click();
    await expect(page).toHaveURL(/\/docs/);
  });
});
