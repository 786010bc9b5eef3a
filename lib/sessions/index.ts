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
export { selectUserSessions, sweepExpiredSessions } from "./store";
export { longClaims, validateSessionToken, type LongClaims, type SessionValidation } from "./validate";
export { userAgentName } from "./user-agent";
