/** What the audit log records of one event. */
export interface AuditEvent {
  /** Dotted event name, `<area>.<subject>.<outcome>`: `passkey.login.succeeded`, `api_key.revoked`. */
  type: string;
  /** Who acted: a user id, `api_key:<id>`, `cli` or `system`. */
  actor?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
  /** Set when the request used an impersonation session: its `impersonated_by`, added to `details`. */
  impersonatedBy?: string | null;
}

/** Who and where an event comes from; route handlers build it from the request. */
export type AuditContext = Pick<AuditEvent, "actor" | "ip" | "userAgent" | "requestId" | "impersonatedBy">;
