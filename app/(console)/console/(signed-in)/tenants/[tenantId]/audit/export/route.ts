import { exportAuditLogs } from "@/lib/audit-logs";
import { auditExportView } from "@/lib/console/audit-actors";
import { auditConsoleAction, currentOperator } from "@/lib/console/guard";
import { canSeeTenant } from "@/lib/operators";
import { getTenant } from "@/lib/tenants";
import { auditFilterOf, filterErrorsOf } from "../filters";

export const dynamic = "force-dynamic";

const text = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });

/**
 * GET /console/tenants/{tenantId}/audit/export?type=…: the page's filtered selection as CSV (every page),
 * streamed. The console session is checked here (route handlers have no page guard): signed out 401,
 * a tenant the operator may not see 404 (as one that does not exist). The export itself is audited.
 */
export async function GET(request: Request, { params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  // The export writes an audit entry: only the console itself (or the address bar) may start it, not a
  // link on another site that rides on the operator's cookie.
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none")
    return text(403, "Start the export from the console.");
  const session = await currentOperator();
  if (!session) return text(401, "Sign in to the console first.");
  if (!canSeeTenant(session.operator, tenantId)) return text(404, "Not found.");
  const tenant = await getTenant(tenantId).catch(() => undefined);
  if (!tenant) return text(404, "Not found.");
  const { values, filter, errors } = auditFilterOf(new URL(request.url).searchParams);
  if (!filter)
    return text(
      400,
      Object.entries(errors)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\n"),
    );
  let stream: ReadableStream<Uint8Array>;
  try {
    // Operators named, and the details as the operator's role may read them (viewers: no private metadata).
    stream = await exportAuditLogs(tenant.id, filter, { present: auditExportView(session.operator.role) });
  } catch (error) {
    const refused = filterErrorsOf(error);
    if (!refused) throw error;
    return text(
      400,
      Object.entries(refused)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\n"),
    );
  }
  const recorded = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
  await auditConsoleAction(session, tenant.id, "audit_log.exported", { filter: recorded });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-log-${tenant.id}-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
