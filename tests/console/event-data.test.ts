import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as emailsRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/emails/route";
import { recordAuditEvent } from "@/lib/audit";
import { exportAuditLogs, queryAuditLogs } from "@/lib/audit-logs";
import { auditEntryView, deliveryBodyView, redactForRole } from "@/lib/console/event-data";
import { auditExportView } from "@/lib/console/audit-actors";
import type { OperatorRole } from "@/lib/db/schema";
import { METADATA_KINDS, patchMetadata } from "@/lib/metadata";
import { createWebhook, getDelivery, listDeliveries, sendTestEvent } from "@/lib/webhooks";
import { adminCall } from "@/tests/helpers/admin-api";
import { adminFixture } from "@/tests/helpers/admin-user-resources";
import { TEST_CONTEXT } from "@/tests/helpers/public-api";

/**
 * The user page hides private metadata from viewers; so must every other place of the console that shows
 * event data: a webhook delivery's body (user.* events carry the admin User, metadata included), test
 * events, the audit log's drawer and its CSV export. One rule, lib/console/event-data.ts.
 */
const SECRET = "s3cret-known-only-to-admins";
const ROLES: OperatorRole[] = ["owner", "admin", "viewer"];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

async function csvText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("security 3.3: console viewers never read private metadata in event data", () => {
  it("security 3.3: a user.* delivery body, a test event and an audit entry leave private metadata out for viewers only", async () => {
    const fx = await adminFixture();
    const { webhook } = await createWebhook(
      fx.tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["user"] },
      TEST_CONTEXT,
    );
    await patchMetadata(
      fx.tenant,
      fx.user.id,
      { public_metadata: { plan: "pro" }, private_metadata: { api_secret: SECRET } },
      TEST_CONTEXT,
    );
    // A user.* event: its data is the admin User, private metadata included.
    const added = await adminCall(
      emailsRoute.POST,
      `/t/${fx.tenant.id}/admin/users/${fx.user.id}/emails`,
      fx.admin,
      {
        method: "POST",
        params: { tenantId: fx.tenant.id, userId: fx.user.id },
        body: { address: `second-${fx.user.id}@example.com`, is_verified: true },
      },
    );
    expect(added.status).toBe(201);
    const { deliveries } = await listDeliveries(fx.tenant.id, webhook.id, { page: 1, perPage: 10 });
    const userEvent = deliveries.find(({ event }) => event.event.startsWith("user."))!;
    const delivery = await getDelivery(fx.tenant.id, webhook.id, userEvent.delivery.id);
    expect(JSON.stringify(delivery.event.data)).toContain(SECRET);

    const test = await sendTestEvent(fx.tenant.id, webhook.id, TEST_CONTEXT);
    const testDelivery = await getDelivery(fx.tenant.id, webhook.id, test.delivery.id);

    await recordAuditEvent(fx.tenant.id, {
      ...TEST_CONTEXT,
      type: "test.metadata.copied",
      details: { user: { private_metadata: { api_secret: SECRET } }, list: [{ privateMetadata: SECRET }] },
    });
    const [entry] = (await queryAuditLogs(fx.tenant.id, { types: ["test.metadata.copied"] })).entries;

    for (const role of ROLES) {
      const body = JSON.parse(deliveryBodyView(role, delivery.event)) as { data: Record<string, unknown> };
      const drawer = auditEntryView(role, entry!);
      const csv = await csvText(
        await exportAuditLogs(
          fx.tenant.id,
          { types: ["test.metadata.copied"] },
          { present: auditExportView(role) },
        ),
      );
      const shown = [JSON.stringify(body), drawer, csv].join("\n");
      if (role === "viewer") {
        expect(shown).not.toContain(SECRET);
        expect(shown).not.toMatch(/private_?metadata/i);
      } else {
        expect(JSON.stringify(body)).toContain(SECRET);
        expect(drawer).toContain(SECRET);
        expect(csv).toContain(SECRET);
      }
      // Everything else stays: the event, the user, the public metadata, the audit entry's own fields.
      expect(body.data).toMatchObject({ id: fx.user.id, metadata: { public_metadata: { plan: "pro" } } });
      expect(JSON.parse(drawer)).toMatchObject({ id: entry!.id, type: "test.metadata.copied" });
      // A test event has no user data: shown alike to every role.
      expect(JSON.parse(deliveryBodyView(role, testDelivery.event))).toMatchObject({
        event: "webhook.test",
        data: { webhook_id: webhook.id, message: "This is a test event from Sesame." },
      });
    }
  });

  it("security 3.3: the user page's metadata follows the same rule", () => {
    const all = Object.fromEntries(METADATA_KINDS.map((kind) => [kind, { a: 1 }]));
    expect(Object.keys(redactForRole("viewer", all))).toEqual(["public_metadata", "unsafe_metadata"]);
    expect(Object.keys(redactForRole("admin", all))).toEqual([...METADATA_KINDS]);
  });

  it("security 3.3: every console source that shows event data, audit details or metadata goes through that rule", () => {
    const roots = ["app/(console)", "components/console"].map((dir) => path.resolve(dir));
    const shows = /\bevent\.data\b|\bentry\.details\b|\.metadata\b|exportAuditLogs\(/;
    const redacts = /\b(redactForRole|deliveryBodyView|auditEntryView|auditExportView)\(/;
    const unredacted = roots
      .flatMap(files)
      .filter((file) => {
        const text = fs.readFileSync(file, "utf8");
        return shows.test(text) && !redacts.test(text);
      })
      .map((file) => path.relative(process.cwd(), file));
    expect(unredacted).toEqual([]);
  });
});
