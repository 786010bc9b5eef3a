import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSurfaceDocument } from "@/lib/openapi";
import { HTTP_METHODS, servedRoutes } from "../helpers/routes";

const ROOT = path.join(import.meta.dirname, "../../app/(authenticator-api)");
/** Routes without an API key: the app's (out-of-band token) and the public Trusted Facets list. */
const APP_ROUTES = new Set(["/v1/uaf/app/requests/{id}"]);
const PUBLIC_ROUTES = new Set(["/v1/uaf/trusted-facets/{tenantId}"]);

type Document = NonNullable<ReturnType<typeof createSurfaceDocument>>;
type Operation = NonNullable<NonNullable<Document["paths"]>[string]>["get"];

function operations(document: Document): [string, string, NonNullable<Operation>][] {
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = (item as Record<string, Operation> | undefined)?.[method.toLowerCase()];
      return operation ? [[method, template, operation] as [string, string, NonNullable<Operation>]] : [];
    }),
  );
}

/** A `$ref` to a component schema, resolved (one level). */
function resolve(document: Document, schema: unknown): Record<string, unknown> {
  const ref = (schema as { $ref?: string }).$ref;
  if (!ref) return schema as Record<string, unknown>;
  const name = ref.replace("#/components/schemas/", "");
  return document.components!.schemas![name] as Record<string, unknown>;
}

describe("the Authenticator API's OpenAPI document", () => {
  it("documents exactly the methods the route files in app/(authenticator-api) export", async () => {
    const document = createSurfaceDocument("authenticator")!;
    const documented = new Set(operations(document).map(([method, template]) => `${method} ${template}`));
    const served = await servedRoutes(ROOT);
    expect(served.size).toBeGreaterThanOrEqual(10);
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it("uses the authenticatorKey scheme on keyed routes and none on the app routes", () => {
    const document = createSurfaceDocument("authenticator")!;
    const templates = operations(document).map(([, template]) => template);
    for (const template of APP_ROUTES) expect(templates).toContain(template);
    for (const [method, template, operation] of operations(document)) {
      const keyless = APP_ROUTES.has(template) || PUBLIC_ROUTES.has(template);
      const expected = keyless ? [] : [{ authenticatorKey: [] }];
      expect(operation.security, `${method} ${template}`).toEqual(expected);
    }
    expect(Object.keys(document.components?.securitySchemes ?? {})).toEqual(["authenticatorKey"]);
    expect(JSON.stringify(document.components!.securitySchemes!.authenticatorKey)).toContain("secret");
  });

  it("spells the 404 body's field `messsage` and every other error's `message`", () => {
    const document = createSurfaceDocument("authenticator")!;
    for (const [method, template, operation] of operations(document)) {
      const responses = operation.responses as Record<
        string,
        { content?: Record<string, { schema: unknown }> }
      >;
      const refusals = PUBLIC_ROUTES.has(template) ? ["404"] : ["401", "404"];
      expect(Object.keys(responses), `${method} ${template}`).toEqual(expect.arrayContaining(refusals));
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const schema = resolve(document, response.content!["application/json"]!.schema);
        const properties = Object.keys(schema.properties as object).sort();
        expect(properties, `${method} ${template} ${status}`).toEqual(
          status === "404" ? ["code", "messsage"] : ["code", "message"],
        );
      }
    }
  });

  it("describes the bounds the routes enforce", () => {
    const document = createSurfaceDocument("authenticator")!;
    const schemas = document.components!.schemas! as Record<string, { properties?: Record<string, unknown> }>;
    const create = JSON.stringify(schemas.CreateRequest);
    expect(create).toContain('"enum":["REG","AUTH","DEREG"]');
    expect(create).toContain('"enum":["direct","indirect","none"]');
    expect(JSON.stringify(schemas.CreateRequest!.properties!.transaction)).toContain('"maxLength":200');
    expect(JSON.stringify(schemas.CreateRequest!.properties!.username)).toContain('"maxLength":128');
    expect(JSON.stringify(schemas.RenameDevice)).toContain('"maxLength":64');
    const qr = document.paths!["/v1/uaf/requests/{id}/qrcode"]!.get!;
    const parameters = JSON.stringify(qr.parameters);
    expect(parameters).toContain('"minimum":64');
    expect(parameters).toContain('"maximum":2048');
    expect(parameters).toContain("[0-9A-Fa-f]{6}");
  });
});
