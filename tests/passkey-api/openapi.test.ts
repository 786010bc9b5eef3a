import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSurfaceDocument } from "@/lib/openapi";
import { HTTP_METHODS, servedRoutes } from "../helpers/routes";

const ROOT = path.join(import.meta.dirname, "../../app/(passkey-api)/passkey");

describe("the Passkey API's OpenAPI document", () => {
  it("documents exactly the methods the route files export (aliases included)", async () => {
    const document = createSurfaceDocument("passkey")!;
    const documented = new Set(
      Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
        HTTP_METHODS.filter((method) => item && method.toLowerCase() in item).map(
          (method) => `${method} ${template}`,
        ),
      ),
    );
    const served = await servedRoutes(ROOT);
    // The extension-less JWKS is a convenience copy of jwks.json, documented there.
    served.delete("GET /{tenantId}/.well-known/jwks");
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it("describes the request bodies the routes validate, the error shape and the apiKey scheme", () => {
    const document = createSurfaceDocument("passkey")!;
    const init = document.paths!["/{tenantId}/registration/initialize"]!.post!;
    const body = JSON.stringify(init.requestBody);
    expect(body).toContain("user_id");
    expect(body).toContain('"maxLength":128');
    expect(init.security).toEqual([{ passkeyKey: [] }]);
    const login = document.paths!["/{tenantId}/login/initialize"]!.post!;
    expect(login.security).toEqual([]);
    expect((login.requestBody as { required: boolean }).required).toBe(false);
    const schemas = JSON.stringify(document.components?.schemas);
    expect(schemas).toContain("PasskeyError");
    expect(schemas).toContain("authenticatorAttachement");
    expect(document.servers?.[0]?.url).toMatch(/\/passkey$/);
  });
});
