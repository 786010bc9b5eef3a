import { expect, test } from "../fixtures";

test.describe("status page and health over HTTP", () => {
  test("GET /t/{tenant}/admin/ answers 200 text with the admin key, 401 otherwise", async ({
    request,
    demo,
  }) => {
    const url = `/t/${demo.tenantId}/admin/`;
    const ok = await request.get(url, { headers: { authorization: `Bearer ${demo.keys.admin}` } });
    expect(ok.status()).toBe(200);
    expect(ok.headers()["content-type"]).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("API is running");
    expect(ok.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);

    const anonymous = await request.get(url);
    expect(anonymous.status()).toBe(401);
    expect(await anonymous.json()).toEqual({ code: 401, message: "Unauthorized" });

    const wrongScope = await request.get(url, { headers: { authorization: `Bearer ${demo.keys.passkey}` } });
    expect(wrongScope.status()).toBe(401);
    expect(await wrongScope.json()).toEqual({ code: 401, message: "Unauthorized" });
  });

  test("the status page answers with and without the trailing slash, never redirecting", async ({
    request,
    demo,
  }) => {
    const res = await request.get(`/t/${demo.tenantId}/admin`, {
      headers: { authorization: `Bearer ${demo.keys.admin}` },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(200);
  });

  test("a tenant id that is not a UUID is 400 in the platform shape", async ({ request }) => {
    const res = await request.get("/t/not-a-uuid/admin/");
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, message: expect.stringContaining("tenantId") });
  });

  test("/livez and /readyz answer 200", async ({ request }) => {
    const live = await request.get("/livez");
    expect(live.status()).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await request.get("/readyz");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok" } });
  });

  test("security 3.4: the image optimizer is off: /_next/image is a 404 and fetches nothing inside", async ({
    request,
    demo,
  }) => {
    const scrapes = async () => {
      const text = await (await request.get("/metrics")).text();
      const line =
        /^sesame_http_requests_total\{surface="health",method="GET",route="\/metrics",status="200"\} (\d+)$/m;
      return Number(line.exec(text)?.[1] ?? 0);
    };
    const before = await scrapes();
    for (const url of ["/metrics", "/console", `/t/${demo.tenantId}/admin/`, "/favicon.svg"]) {
      const res = await request.get(`/_next/image?url=${encodeURIComponent(url)}&w=64&q=75`);
      expect(res.status(), url).toBe(404);
    }
    // Only the scrape before was counted since: the optimizer read no /metrics.
    expect(await scrapes()).toBe(before + 1);
  });

  test("an incoming X-Request-Id is echoed", async ({ request }) => {
    const res = await request.get("/livez", { headers: { "x-request-id": "trace-42" } });
    expect(res.headers()["x-request-id"]).toBe("trace-42");
  });
});
