export { answerOpenid, type OpenidAnswer } from "./handle";
export { providerFor, interactionPath, OPENID_ROUTES, SCOPES, TTL } from "./provider";
export { continueInteraction, decideConsent } from "./interaction";
export {
  createOAuthClient,
  deleteOAuthClient,
  getOAuthClient,
  listOAuthClients,
  rotateOAuthClientSecret,
  updateOAuthClient,
  type OAuthClient,
  type OAuthClientChanges,
  type OAuthClientInput,
} from "./clients";
export { listConnectedApps, revokeConnectedApp, type ConnectedApp } from "./consents";
export { sweepExpiredOpenidModels } from "./sweep";
export { queueBackchannelLogouts } from "./backchannel";
