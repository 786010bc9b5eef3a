import { z } from "zod";

/**
 * Schemas of Hanko's published admin OpenAPI document (teamhanko/docs `openapi-admin.yaml`, "Hanko Admin
 * API" 1.2.0, `components.schemas`), written out in zod to check Sesame's answers the way a client that
 * validates against Hanko's document does: required fields present, types and formats as declared
 * (`ip-address`/`ip_address`: an IPv4 or IPv6 address; `date-time`: RFC 3339; `uuid`/`uuid4`). Fields the
 * document does not declare are allowed (it sets no `additionalProperties: false`).
 */
const DateTime = z.iso.datetime({ offset: true });
const IpAddress = z.union([z.ipv4(), z.ipv6()]);

/** `Session` (`GET /users/{id}/sessions`): `user_agent` and `ip_address` are optional strings, not nullable. */
export const HankoSession = z.looseObject({
  id: z.uuid(),
  user_id: z.uuid(),
  user_agent: z.string().optional(),
  ip_address: IpAddress.optional(),
  created_at: DateTime,
  updated_at: DateTime,
  last_used: DateTime,
  expires_at: DateTime.optional(),
});

/**
 * `AuditLog` (`GET /audit_logs`): `meta_source_ip` is required and an IP address. `type` is checked as a
 * string: Hanko's `AuditLogTypes` enum lists Hanko's own event names, and Sesame records its own
 * (docs/audit-log.md, "Event types recorded today").
 */
export const HankoAuditLog = z.looseObject({
  id: z.uuid(),
  type: z.string(),
  error: z.string().optional(),
  meta_http_request_id: z.string(),
  meta_source_ip: IpAddress,
  meta_user_agent: z.string(),
  actor_user_id: z.uuid().optional(),
  actor_email: z.email().optional(),
  created_at: DateTime,
  updated_at: DateTime,
});
