import { auditLogWire, listAuditLogs } from "@/lib/contracts/admin";
import { exportAuditLogs, queryAuditLogs, type AuditLogFilter } from "@/lib/audit-logs";
import { pageJson, route } from "@/lib/http";
import { wantsCsv } from "./presentation";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/audit_logs: a page of events (JSON, X-Total-Count, Link), or all of them as CSV
export const GET = route(listAuditLogs, async ({ req, tenant, query }) => {
  const filter: AuditLogFilter = {
    startTime: query.start_time,
    endTime: query.end_time,
    // Repeatable: the route wrapper keeps only a key's last value, so every `type` is read here.
    types: new URL(req.url).searchParams.getAll("type"),
    actorUserId: query.actor_user_id,
    actorEmail: query.actor_email,
    ip: query.meta_source_ip,
    q: query.q,
  };
  if (wantsCsv(req)) {
    return new Response(await exportAuditLogs(tenant.id, filter), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-logs-${tenant.id}.csv"`,
        "cache-control": "no-store",
      },
    });
  }
  const listing = await queryAuditLogs(tenant.id, filter, { page: query.page, perPage: query.per_page });
  return pageJson(req.url, listing.entries.map(auditLogWire), listing);
});
