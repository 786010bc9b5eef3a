import { expect, test } from "../fixtures";

test.describe("OpenAPI documents", () => {
  test("the admin document describes the status page from its zod schemas", async ({ request }) => {
    const res = await request.get("/openapi/admin.json");
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    const operation = doc.paths["/t/{tenantId}/admin/"].get;
    expect(operation.security).toEqual([{ adminKey: [] }]);
    expect(operation.parameters[0]).toMatchObject({ in: "path", name: "tenantId", required: true });
    expect(Object.keys(operation.responses)).toEqual(["200", "400", "401", "500"]);
    expect(doc.components.schemas.Error.required).toEqual(["code", "message"]);
    expect(doc.components.securitySchemes.adminKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  test("the health document lists /livez, /readyz and /metrics", async ({ request }) => {
    const doc = await (await request.get("/openapi/health.json")).json();
    expect(Object.keys(doc.paths).sort()).toEqual(["/livez", "/metrics", "/readyz"]);
    expect(Object.keys(doc.paths["/readyz"].get.responses)).toEqual(["200", "503"]);
  });

  test("an unknown document is 404 in the platform shape", async ({ request }) => {
    const res = await request.get("/openapi/nothing.json");
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ code: 404 });
  });
});
