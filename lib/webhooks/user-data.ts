import { selectUserEmails } from "@/lib/emails";
import { findUser } from "@/lib/users";

/**
 * The `data` of user.* events: the admin User object, read inside the emitting transaction (after the
 * change; for `user.delete`, before the row goes).
 * LEAD: replace with getAdminUser
 */
export async function userEventData(tenantId: string, userId: string): Promise<unknown> {
  const user = await findUser(tenantId, userId);
  if (!user) return { id: userId };
  const emails = await selectUserEmails(tenantId, userId);
  return {
    id: user.id,
    emails: emails.map((email) => ({
      id: email.id,
      address: email.address,
      is_verified: email.verified,
      is_primary: email.isPrimary,
      created_at: email.createdAt,
      updated_at: email.updatedAt,
    })),
    ...(user.username ? { username: user.username } : {}),
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  };
}

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
