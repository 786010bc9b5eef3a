import { expect, test } from "./fixtures";

test.describe("API reference at /docs", () => {
  test("renders each surface with the locally served Redoc bundle, fetching nothing from elsewhere", async ({
    page,
    baseURL,
  }) => {
    // Anything fetched from another origin would arrive as a response; the CSP blocks Redoc's CDN logo.
    const foreign: string[] = [];
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
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
    // Redoc's CDN logo is replaced in the served bundle: no CSP violation in the console.
    expect(errors).toEqual([]);
  });

  test("opens on an overview with a quick start per surface, each linking to its reference", async ({
    page,
  }) => {
    await page.goto("/docs");
    await expect(page.getByRole("heading", { name: "Sesame docs", level: 1 })).toBeVisible();
    for (const title of ["Elements and hosted pages", "Flow API", "Passkey API", "OpenID Provider", "UAF"])
      await expect(page.getByRole("heading", { name: new RegExp(`^Quick start: ${title}`) })).toBeVisible();
    await page.getByRole("link", { name: "Passkey API reference" }).click();
    await expect(page).toHaveURL(/\/docs\?api=passkey$/);
    await expect(
      page.getByTestId("redoc").getByRole("heading", { name: "Sesame Passkey API" }),
    ).toBeVisible();
  });

  test("the home page links to the guides and API reference", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Sesame" })).toBeVisible();
    await page.getByRole("link", { name: "Read the guides and API reference" }).click();
    await expect(page).toHaveURL(/\/docs/);
  });
});
