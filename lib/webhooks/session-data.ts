/** The `data` of session.* events: Hanko's session object. */
export function sessionEventData(session: {
  id: string;
  userId: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date;
}): Record<string, unknown> {
  return {
    id: session.id,
    user_id: session.userId,
    user_agent: session.userAgent,
    ip_address: session.ip,
    created_at: session.createdAt,
    updated_at: session.lastUsedAt,
    expires_at: session.expiresAt,
    last_used: session.lastUsedAt,
  };
}
