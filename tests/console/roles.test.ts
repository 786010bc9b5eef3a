import { describe, expect, it } from "vitest";
import { decideAccess } from "@/lib/console/access";

/**
 * The console's access rule per role (lib/console/access.ts), which every page loader and server action
 * applies (tests/console/guards.test.ts checks they all go through it; the e2e tests show the refusals).
 */
const A = "0b6f8e3c-8a57-4c0e-9b7f-3f1f3e0a0001";
const B = "0b6f8e3c-8a57-4c0e-9b7f-3f1f3e0a0002";
const owner = { role: "owner" as const, tenantIds: [] };
const admin = { role: "admin" as const, tenantIds: [A] };
const viewer = { role: "viewer" as const, tenantIds: [A] };

describe("console access per role", () => {
  it.each([
    // operator, access, tenant, decision
    ["owner", owner, "read", B, "ok"],
    ["owner", owner, "write", B, "ok"],
    ["owner", owner, "owner", undefined, "ok"],
    ["admin", admin, "read", A, "ok"],
    ["admin", admin, "write", A, "ok"],
    ["admin", admin, "owner", undefined, "forbidden"],
    ["admin", admin, "read", B, "not_found"],
    ["admin", admin, "write", B, "not_found"],
    ["viewer", viewer, "read", A, "ok"],
    ["viewer", viewer, "write", A, "forbidden"],
    ["viewer", viewer, "owner", undefined, "forbidden"],
    ["viewer", viewer, "read", B, "not_found"],
  ] as const)("%s: %s on %s → %s", (_name, operator, access, tenant, decision) => {
    expect(decideAccess(operator, access, tenant)).toBe(decision);
  });

  it("gives an admin or viewer without grants no tenant", () => {
    expect(decideAccess({ role: "admin", tenantIds: [] }, "read", A)).toBe("not_found");
    expect(decideAccess({ role: "viewer", tenantIds: [] }, "read", A)).toBe("not_found");
  });
});
