import type { SessionRow } from "@/lib/db/schema";
import { selectUserSessions } from "./store";

/** The user's sessions that have not expired, oldest first. */
export function findUserSessions(tenantId: string, userId: string): Promise<SessionRow[]> {
  return selectUserSessions(tenantId, userId);
}
