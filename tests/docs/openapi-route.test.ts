import { describe, expect, it } from "vitest";
import { GET } from "@/app/(docs)/openapi/[document]/route";

const get = (document: string) =>
  GET(new Request(`http://localhost/openapi/${document}`), { params: Promise.resolve({ document }) });

describe("GET /openapi/{document}", () => {
  it("serves a surface's document, open to any origin", async () => {
    const response = await get("admin.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
  });

  it.each(["nope.json", "admin", "admin.yaml"])("answers %s with the platform's 404", async (document) => {
    const response = await get(document);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 404, message: "No OpenAPI document of that name" });
  });
});
