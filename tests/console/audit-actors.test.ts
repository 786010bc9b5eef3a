import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exportCsv } from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/audit/export/route";
import { createKey } from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/keys/actions";
import { queryAuditLogs } from "@/lib/audit-logs";
import { nameOperators } from "@/lib/console/audit-actors";
import { removeOperator } from "@/lib/operators";
import { consoleSession, signInOperator } from "@/tests/helpers/console";
import { createTestTenant } from "@/tests/helpers/tenants";

// Next's request plumbing only (see tests/helpers/console.ts); imported lazily, as vi.mock is hoisted.
vi.mock("next-auth", async (original) =>
  (await import("@/tests/helpers/console")).nextMocks.nextAuth(original as never),
);
vi.mock("next/headers", async () => (await import("@/tests/helpers/console")).nextMocks.headers());
vi.mock("next/cache", async () => (await import("@/tests/helpers/console")).nextMocks.cache());

/** Issue 29, bug 3: the audit screen, its JSON and the CSV name the operator behind a console action. */
// Operators are instance-wide (not per tenant): unique addresses, as a Postgres database outlives a run.
const run = crypto.randomUUID().slice(0, 8);
const AUDITOR = `auditor-${run}@ops.test`;
const GONE = `gone-${run}@ops.test`;

describe("console actions in the audit log", () => {
  let tenantId = "";
  let operator: { id: string; email: string };

  beforeAll(async () => {
    tenantId = (await createTestTenant()).tenant.id;
    operator = (await signInOperator(AUDITOR, "owner")).operator;
    const created = await createKey(tenantId, { name: "ci", scopes: ["admin"] });
    expect(created.ok).toBe(true);
  });

  it("names the operator (id and email) in the entries the screen and its JSON show", async () => {
    const listing = await queryAuditLogs(tenantId, { types: ["api_key.created"] });
    const [entry] = await nameOperators(listing.entries);
    expect(entry).toMatchObject({
      actor: `operator:${operator.id}`,
      actorUserId: operator.id,
      actorEmail: AUDITOR,
    });
  });

  it("names the operator in the CSV export", async () => {
    const response = await exportCsv(
      new Request(`http://localhost/console/tenants/${tenantId}/audit/export?type=api_key.created`),
      { params: Promise.resolve({ tenantId }) },
    );
    expect(response.status).toBe(200);
    const [header, row] = (await response.text()).split("\r\n");
    const columns = header!.split(",");
    const cells = row!.split(",");
    expect(cells[columns.indexOf("actor_user_id")]).toBe(operator.id);
    expect(cells[columns.indexOf("actor_email")]).toBe(AUDITOR);
  });

  it("keeps the address a removed operator had, as the console recorded it", async () => {
    const other = await signInOperator(GONE, "owner");
    const exported = await (
      await exportCsv(new Request(`http://localhost/console/tenants/${tenantId}/audit/export`), {
        params: Promise.resolve({ tenantId }),
      })
    ).text();
    expect(exported).toContain(GONE);
    consoleSession.sid = undefined;
    await removeOperator(other.operator.id, `operator:${operator.id}`);
    const listing = await queryAuditLogs(tenantId, { types: ["console.audit_log.exported"] });
    const named = await nameOperators(listing.entries);
    expect(named.find((entry) => entry.actor === `operator:${other.operator.id}`)?.actorEmail).toBe(GONE);
  });
});
