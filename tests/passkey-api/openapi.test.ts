import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSurfaceDocument } from "@/lib/openapi";

const ROOT = path.join(import.meta.dirname, "../../app/(passkey-api)/passkey");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** `[tenantId]/credentials/[credentialId]/route.ts` → `/{tenantId}/credentials/{credentialId}`. */
function templateOf(file: string): string {
  const relative = path.relative(ROOT, path.dirname(file)).split(path.sep);
  return `/${relative.map((part) => part.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`;
}

describe("the Passkey API's OpenAPI document", () => {
  it("documents exactly the methods the route files export (aliases included)", async () => {
    const document = createSurfaceDocument("passkey")!;
    const documented = new Set(
      Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
        METHODS.filter((method) => item && method.toLowerCase() in item).map(
          (method) => `${method} ${template}`,
        ),
      ),
    );
    const served = new Set<string>();
    for (const file of routeFiles(ROOT)) {
      const module = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS) {
        if (typeof module[method] === "function") served.add(`${method} ${templateOf(file)}`);
      }
    }
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
