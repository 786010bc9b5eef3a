import path from "node:path";
import { describe, expect, it } from "vitest";
import { FLOW_CONTRACTS } from "@/lib/contracts/flow";
import { FLOW_NAMES } from "@/lib/db/schema";
import { createSurfaceDocument } from "@/lib/openapi";
import { HTTP_METHODS, servedRoutes } from "../helpers/routes";

const ROOT = path.join(import.meta.dirname, "../../app/(flow-api)");

type Document = NonNullable<ReturnType<typeof createSurfaceDocument>>;

function operations(document: Document) {
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = (item as Record<string, Record<string, unknown>> | undefined)?.[method.toLowerCase()];
      return operation ? [[`${method} ${template}`, operation] as const] : [];
    }),
  );
}

describe("the flow API's OpenAPI document", () => {
  it("documents exactly the routes of app/(flow-api): both URL forms of every flow", async () => {
    const document = createSurfaceDocument("flow")!;
    const documented = operations(document).map(([route]) => route);
    const served = await servedRoutes(ROOT);
    expect([...served].sort()).toEqual([...documented].sort());
    for (const name of FLOW_NAMES) expect(documented).toContain(`POST /t/{tenantId}/${name}`);
    expect(documented).toContain("POST /t/{tenantId}/flow/{flow}/initialize");
    expect(documented).toContain("POST /t/{tenantId}/flow/{flow}/finalize");
    expect(new Set(FLOW_CONTRACTS.map((c) => c.operationId)).size).toBe(FLOW_CONTRACTS.length);
  });

  it("answers every operation with the FlowResponse schema and asks no credentials", () => {
    const document = createSurfaceDocument("flow")!;
    const schemas = document.components!.schemas! as Record<string, { properties?: object }>;
    expect(Object.keys(schemas.FlowResponse!.properties!).sort()).toEqual(
      ["actions", "csrf_token", "error", "links", "name", "payload", "status"].sort(),
    );
    for (const [route, operation] of operations(document)) {
      expect(operation.security, route).toEqual([]);
      expect(operation.summary, route).toBeTruthy();
      const responses = operation.responses as Record<
        string,
        { content?: Record<string, { schema: unknown }> }
      >;
      for (const status of ["200", "default"]) {
        expect(responses[status]?.content?.["application/json"]?.schema, `${route} ${status}`).toEqual({
          $ref: "#/components/schemas/FlowResponse",
        });
      }
    }
  });
});
