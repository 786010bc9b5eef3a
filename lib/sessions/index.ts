export {
  authenticateSession,
  checkSessionToken,
  endOtherSessions,
  endSession,
  issueSession,
  issuerOf,
  presentedSessionToken,
  type AuthMethod,
  type AuthenticatedSession,
  type IssuedSession,
  type SessionClaims,
  type ValidSession,
} from "./sessions";
export { findUserSessions } from "./lookups";
export { sweepExpiredSessions } from "./sweep-expired-sessions";
export { validateSessionToken, type SessionValidation } from "./validate";
export { userAgentName, userAgentParts } from "./user-agent";
export { impersonateUser, listSessionsOfUser, revokeSessionOfUser } from "./admin-sessions";
export type { SessionClient } from "./sessions";
export { revokeAllSessionsOfUser } from "./revoke-all-sessions";
