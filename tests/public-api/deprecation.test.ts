import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PUBLIC_CONTRACTS } from "@/lib/contracts/public";
import { getConfig } from "@/lib/config";
import type { Contract } from "@/lib/contracts/contract";
import { updateTenant } from "@/lib/tenants";
import { ORIGIN, createPublicTenant, publicCall } from "../helpers/public-api";
import { servedRoutes } from "../helpers/routes";

const ROOT = path.join(import.meta.dirname, "../../app/(public-api)");

/** The spec's deprecated public endpoints (interface.md, Versioning), as it writes them. */
const SPEC_DEPRECATED = [
  "POST /passcode/login/initialize",
  "POST /passcode/login/finalize",
  "POST /password/login",
  "PUT /password",
  "POST /webauthn/login/initialize",
  "POST /webauthn/login/finalize",
  "POST /webauthn/registration/initialize",
  "POST /webauthn/registration/finalize",
  "GET /webauthn/credentials",
  "DELETE /webauthn/credentials/{id}",
  "PATCH /webauthn/credentials/{id}",
  "GET /.well-known/config",
  "GET /thirdparty/auth",
  "POST /token",
  "POST /user",
  "DELETE /user",
  "POST /users",
  "GET /users/{id}",
  "GET /emails",
  "POST /emails",
  "POST /emails/{id}/set_primary",
  "DELETE /emails/{id}",
  "GET /saml/provider",
];

/** `METHOD /t/{tenantId}/a/{x}` → `METHOD /a/{}`: compares Sesame's routes with the spec's paths. */
const normalize = (route: string) => route.replace(" /t/{tenantId}", " ").replace(/\{\w+\}/g, "{}");

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The handler app/(public-api) serves for a contract (its route file's export for the method). */
async function handlerOf(contract: Contract): Promise<Handler> {
  const folder = contract.path
    .split("/")
    .map((part) => part.replace(/^\{(\w+)\}$/, "[$1]"))
    .join("/");
  const file = path.join(ROOT, folder, "route.ts");
  expect(fs.existsSync(file), `${contract.operationId}: ${file}`).toBe(true);
  const module = (await import(file)) as Record<string, Handler | undefined>;
  const handler = module[contract.method];
  expect(handler, `${contract.method} ${contract.path}`).toBeTypeOf("function");
  return handler!;
}

/** The path's other parameters, as UUIDs (ids in this API are UUIDs). */
function otherParams(contract: Contract): Record<string, string> {
  const names = [...contract.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  return Object.fromEntries(names.filter((name) => name !== "tenantId").map((name) => [name, randomUUID()]));
}

const deprecated = PUBLIC_CONTRACTS.filter((contract) => contract.deprecated);

describe("deprecated public endpoints (spec, Versioning)", () => {
  it("marks every endpoint of the spec's deprecated list that Sesame serves, and only those", async () => {
    const served = [...(await servedRoutes(ROOT))].map(normalize);
    const spec = new Set(SPEC_DEPRECATED.map(normalize));
    const expected = served.filter((route) => spec.has(route)).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(deprecated.map((contract) => normalize(`${contract.method} ${contract.path}`)).sort()).toEqual(
      expected,
    );
  });

  it("names a successor under the tenant for each, GET /me for GET /users/{id}", () => {
    for (const contract of deprecated) {
      expect(contract.deprecated!.successor, contract.operationId).toMatch(/^\/t\/\{tenantId\}\/[\w./-]+$/);
      expect(contract.deprecated!.successor, contract.operationId).not.toBe(contract.path);
      if (normalize(`${contract.method} ${contract.path}`) === "GET /users/{}") {
        expect(contract.deprecated!.successor).toBe("/t/{tenantId}/me");
      }
    }
  });

  it.each(deprecated.map((contract) => [`${contract.method} ${contract.path}`, contract] as const))(
    "%s answers with Deprecation and a Link to its successor on API version 2, 404 on version 3",
    async (_, contract) => {
      const handler = await handlerOf(contract);
      const tenant = await createPublicTenant();
      const path = contract.path.replace("/t/{tenantId}", "");
      const params = otherParams(contract);
      // No session and no body: whatever the answer (200, 400, 401…), it carries the headers.
      const res = await publicCall(handler, tenant, contract.method, path, { origin: ORIGIN }, params);
      expect(res.status, await res.clone().text()).not.toBe(404);
      expect(res.headers.get("deprecation")).toBe("true");
      const successor = contract.deprecated!.successor.replace("{tenantId}", tenant.id);
      expect(res.headers.get("link")).toBe(`<${getConfig().baseUrl}${successor}>; rel="successor-version"`);
      // A browser on the tenant's origin may read them.
      if (contract.cors) {
        const exposed = res.headers.get("access-control-expose-headers")?.split(", ");
        expect(exposed).toEqual(expect.arrayContaining(["Deprecation", "Link"]));
      }

      const v3 = await updateTenant(tenant.id, { platform: { apiVersion: 3 } });
      const gone = await publicCall(handler, v3, contract.method, path, { origin: ORIGIN }, params);
      expect(gone.status).toBe(404);
      expect(await gone.json()).toEqual({ code: 404, message: "Not Found" });
      expect(gone.headers.get("deprecation")).toBeNull();
      expect(gone.headers.get("link")).toBeNull();
    },
  );

  it("leaves endpoints that are not deprecated alone on API version 3", async () => {
    const tenant = await createPublicTenant({ platform: { apiVersion: 3 } });
    const { GET } = await import("@/app/(public-api)/t/[tenantId]/.well-known/jwks.json/route");
    const res = await publicCall(GET, tenant, "GET", "/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBeNull();
  });
});
