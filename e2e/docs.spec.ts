import { expect, test } from "./fixtures";

test.describe("API reference at /docs", () => {
  test("renders each surface with the locally served Redoc bundle, fetching nothing from elsewhere", async ({
    page,
    baseURL,
  }) => {
    const foreign: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (!["data:", "blob:"].includes(url.protocol) && url.origin !== baseURL) foreign.push(request.url());
    });

    await page.goto("/docs?api=admin");
    await expect(page.getByTestId("redoc").getByRole("heading", { name: "Sesame admin API" })).toBeVisible();
    await expect(page.getByTestId("redoc").getByText("Status page").first()).toBeVisible();

    await page.getByRole("link", { name: "health", exact: true }).click();
    await expect(page).toHaveURL(/api=health/);
    await expect(page.getByTestId("redoc").getByText("Readiness").first()).toBeVisible();
    expect(foreign).toEqual([]);
  });

  test("the home page links to the API reference", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Sesame" })).toBeVisible();
    await page.getByRole("link", { name: "API reference" }).click();
    await expect(page).toHaveURL(/\/docs/);
  });
});
