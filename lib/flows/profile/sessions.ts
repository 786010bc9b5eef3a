import type { SessionRow } from "@/lib/db/schema";
import type { FlowContext } from "@/lib/flows/definition";
import { userAgentName } from "@/lib/sessions";
import type { Profile } from "./profile";

/** Hanko's `Session` of the profile payload; `user_agent` is a short "Browser (OS)" of the raw one. */
export function flowSession(row: SessionRow, currentId: string) {
  return {
    id: row.id,
    ...(row.userAgent ? { user_agent: userAgentName(row.userAgent), user_agent_raw: row.userAgent } : {}),
    ...(row.ip ? { ip_address: row.ip } : {}),
    created_at: row.createdAt.toISOString(),
    last_used: row.lastUsedAt.toISOString(),
    current: row.id === currentId,
    expires_at: row.expiresAt.toISOString(),
  };
}

/** The user's sessions other than the one in use (which logout ends, not the profile). */
export const otherSessions = (ctx: FlowContext, profile: Profile) =>
  profile.sessions.filter((row) => row.id !== ctx.session?.session.id);
