import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_CONTRACTS } from "@/lib/contracts/admin";
import { createSurfaceDocument } from "@/lib/openapi";
import { HTTP_METHODS, servedRoutes } from "../helpers/routes";

const ROOT = path.join(import.meta.dirname, "../../app/(admin-api)");

describe("the admin API's OpenAPI document", () => {
  it("documents exactly the routes of app/(admin-api), each behind the admin key with its 400 and 401", async () => {
    const document = createSurfaceDocument("admin")!;
    const operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      HTTP_METHODS.flatMap((method) => {
        const operation = (item as Record<string, Record<string, unknown>> | undefined)?.[
          method.toLowerCase()
        ];
        return operation ? [[`${method} ${template}`, operation] as const] : [];
      }),
    );
    // The status page is documented as the spec writes it, with the trailing slash.
    const served = [...(await servedRoutes(ROOT))].map((route) =>
      route === "GET /t/{tenantId}/admin" ? "GET /t/{tenantId}/admin/" : route,
    );
    expect(served.sort()).toEqual(operations.map(([route]) => route).sort());
    expect(new Set(ADMIN_CONTRACTS.map((c) => c.operationId)).size).toBe(ADMIN_CONTRACTS.length);
    for (const [route, operation] of operations) {
      expect(operation.security, route).toEqual([{ adminKey: [] }]);
      expect(operation.summary, route).toBeTruthy();
      const responses = operation.responses as Record<string, unknown>;
      expect(responses["401"], route).toBeDefined();
      expect(responses["400"], route).toBeDefined();
    }
    expect(JSON.stringify(document)).toContain("session.delete.explicit.logout");
  });
});
