import { z } from "zod";
import { NO_SOURCE_IP, type AuditLogEntry } from "@/lib/audit-logs";
import { defineContract } from "@/lib/contracts/contract";
import { TenantIdParam, platformErrors } from "../schemas";

export const AuditLog = z
  .object({
    id: z.uuid(),
    type: z.string().meta({ example: "passkey.login.finalize.succeeded" }),
    error: z.string().optional().meta({ description: "The failure's reason, on failure records" }),
    meta_http_request_id: z.string().meta({ description: "The request's `X-Request-Id`; empty when none" }),
    meta_source_ip: z
      .union([z.ipv4(), z.ipv6()])
      .meta({ description: `The client's IP; ${NO_SOURCE_IP} when none (CLI and system events)` }),
    meta_user_agent: z.string().meta({ description: "The client's User-Agent; empty when none" }),
    actor_user_id: z.uuid().optional().meta({ description: "The acting user, when a user acted" }),
    actor_email: z
      .string()
      .optional()
      .meta({ description: "The acting user's primary address today (not at the time of the event)" }),
    details: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime().meta({ description: "Events never change: the same as created_at" }),
  })
  .meta({ id: "AuditLog", description: "Hanko's admin `AuditLog`" });

/**
 * An event on the wire (Hanko's admin `AuditLog`): absent optional fields, empty strings for a missing
 * request id or user agent, and NO_SOURCE_IP for a missing client IP (the schema wants an IP address).
 */
export function auditLogWire(entry: AuditLogEntry): z.input<typeof AuditLog> {
  const createdAt = entry.createdAt.toISOString();
  return {
    id: entry.id,
    type: entry.type,
    ...(entry.error !== null ? { error: entry.error } : {}),
    meta_http_request_id: entry.requestId ?? "",
    meta_source_ip: entry.ip ?? NO_SOURCE_IP,
    meta_user_agent: entry.userAgent ?? "",
    ...(entry.actorUserId !== null ? { actor_user_id: entry.actorUserId } : {}),
    ...(entry.actorEmail !== null ? { actor_email: entry.actorEmail } : {}),
    details: entry.details,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

const integer = (min: number, max: number, description: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .meta({ description });

const Rfc3339 = (description: string) =>
  z.iso
    .datetime({ offset: true, error: "must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z" })
    .transform((value) => new Date(value))
    .optional()
    .meta({ description });

export const AuditLogQuery = z.object({
  page: integer(1, 1_000_000, "Page number, from 1 (default 1). Ignored by the CSV export"),
  per_page: integer(1, 100, "Events per page, 1 to 100 (default 20). Ignored by the CSV export"),
  start_time: Rfc3339("Events created at or after this instant (RFC 3339)"),
  end_time: Rfc3339("Events created before this instant (RFC 3339)"),
  type: z
    .union([z.string().max(100), z.array(z.string().max(100))])
    .optional()
    .meta({
      description:
        "Repeatable. An exact event type (`passkey.login.finalize.succeeded`) or a prefix ending in `.*` " +
        "(`passkey.*` matches every `passkey.…` type); an event matches when any of them does",
    }),
  actor_user_id: z.string().min(1).max(512).optional().meta({ description: "The acting user's id" }),
  actor_email: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .optional()
    .meta({ description: "The address of the acting user (any of the user's addresses today)" }),
  meta_source_ip: z
    .union([z.ipv4(), z.ipv6()])
    .optional()
    .meta({ description: `The client IP (exact); ${NO_SOURCE_IP}: events without one (CLI, system)` }),
  q: z
    .string()
    .max(200)
    .optional()
    .meta({
      description:
        "Free text, case-insensitive, anywhere in the type, actor, IP, user agent, request id, details, " +
        "or an address of the acting user",
    }),
});

const PaginationHeaders = z.object({
  "X-Total-Count": z
    .number()
    .int()
    .min(0)
    .meta({ description: "Events the filter selects, over all pages (JSON only)" }),
  Link: z.string().meta({
    description:
      'RFC 8288 links to the `first`, `last`, `next` and `prev` pages (`<url>; rel="next"`), as Hanko (JSON only)',
  }),
});

export const listAuditLogs = defineContract({
  surface: "admin",
  method: "GET",
  path: "/t/{tenantId}/admin/audit_logs",
  operationId: "listAuditLogs",
  summary: "List or export audit log events",
  description:
    "The tenant's audit log, newest first, filtered as Hanko's `GET /audit_logs`. With `Accept: text/csv` " +
    "the whole selection (every page; `page` and `per_page` are ignored) streams as a CSV attachment. " +
    "Events are kept for the tenant's `auditLog.retentionDays` (default 90). See docs/audit-log.md.",
  tags: ["Audit logs"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: z.object({ tenantId: TenantIdParam }),
  query: AuditLogQuery,
  responses: {
    "200": {
      description: "The page of events (JSON), or every selected event (CSV)",
      headers: PaginationHeaders,
      content: {
        "application/json": { schema: z.array(AuditLog) },
        "text/csv": {
          schema: z.string().meta({
            description:
              "RFC 4180, CRLF, a header row: id, created_at, type, error, actor_user_id, actor_email, " +
              "meta_source_ip, meta_user_agent, meta_http_request_id, details (JSON). Cells starting with " +
              "= + - @ tab or CR are prefixed with '",
          }),
        },
      },
    },
    ...platformErrors(400, 401, 404, 500),
  },
});
