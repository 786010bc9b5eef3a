import path from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLIC_CONTRACTS } from "@/lib/contracts/public";
import { createSurfaceDocument } from "@/lib/openapi";
import { HTTP_METHODS, servedRoutes } from "../helpers/routes";

const ROOT = path.join(import.meta.dirname, "../../app/(public-api)");

type Document = NonNullable<ReturnType<typeof createSurfaceDocument>>;
type Operation = NonNullable<NonNullable<NonNullable<Document["paths"]>[string]>["get"]>;
type Responses = Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;

function operations(document: Document): [string, Operation][] {
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = (item as Record<string, Operation> | undefined)?.[method.toLowerCase()];
      return operation ? [[`${method} ${template}`, operation] as [string, Operation]] : [];
    }),
  );
}

const contractOf = (route: string) =>
  PUBLIC_CONTRACTS.find((contract) => `${contract.method} ${contract.path}` === route)!;

// Written over the contract list and the route folder, so it covers every endpoint added later.
describe("the public API's OpenAPI document", () => {
  it("documents exactly the methods the route files in app/(public-api) export", async () => {
    const document = createSurfaceDocument("public")!;
    const documented = operations(document).map(([route]) => route);
    const served = await servedRoutes(ROOT);
    expect(served.size).toBeGreaterThanOrEqual(8);
    expect([...served].sort()).toEqual([...documented].sort());
    // One contract per operation: no two contracts claim the same method and path.
    expect(new Set(PUBLIC_CONTRACTS.map((c) => `${c.method} ${c.path}`)).size).toBe(PUBLIC_CONTRACTS.length);
    expect(new Set(PUBLIC_CONTRACTS.map((c) => c.operationId)).size).toBe(PUBLIC_CONTRACTS.length);
  });

  it("names the session scheme on session routes and none elsewhere; no API key anywhere", () => {
    const document = createSurfaceDocument("public")!;
    for (const [route, operation] of operations(document)) {
      const session = contractOf(route).auth.kind === "session";
      expect(operation.security, route).toEqual(session ? [{ sessionToken: [] }] : []);
      expect(["none", "session"], route).toContain(contractOf(route).auth.kind);
    }
    expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(["sessionToken"]);
  });

  it("gives every operation a summary, a tag, a success response, the tenant's 404 and {code, message} errors", () => {
    const document = createSurfaceDocument("public")!;
    const schemas = document.components!.schemas! as Record<string, { properties?: object }>;
    expect(Object.keys(schemas.Error!.properties!).sort()).toEqual(["code", "message"]);
    for (const [route, operation] of operations(document)) {
      expect(operation.summary, route).toBeTruthy();
      expect(operation.tags?.length, route).toBeGreaterThan(0);
      const responses = operation.responses as Responses;
      // A success, or the redirect of a browser navigation (SAML SSO and ACS).
      expect(
        Object.keys(responses).some((status) => /^[23]\d\d$/.test(status)),
        route,
      ).toBe(true);
      expect(Object.keys(responses), route).toContain("404");
      if (contractOf(route).auth.kind === "session") expect(Object.keys(responses), route).toContain("401");
      if (contractOf(route).body) expect(Object.keys(responses), route).toContain("400");
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.["application/json"]?.schema as { $ref?: string } | undefined;
        expect(schema?.$ref, `${route} ${status}`).toBe("#/components/schemas/Error");
      }
    }
  });

  it("marks deprecated endpoints and documents the 429 of rate-limited ones", () => {
    const document = createSurfaceDocument("public")!;
    for (const [route, operation] of operations(document)) {
      const contract = contractOf(route);
      expect(Boolean(operation.deprecated), route).toBe(Boolean(contract.deprecated));
      const responses = operation.responses as Record<string, { headers?: object }>;
      if (contract.rateLimit) {
        expect(Object.keys(responses), route).toContain("429");
        expect(Object.keys(responses["429"]!.headers ?? {}), route).toContain("Retry-After");
      } else {
        expect(Object.keys(responses), route).not.toContain("429");
      }
    }
  });
});
