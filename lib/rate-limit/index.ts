export {
  applyRateLimitHeaders,
  consumeRateLimit,
  RateLimited,
  type RateLimitOutcome,
  type RateLimitRequest,
  type SubjectKind,
} from "./consume";
export { GROUP_DEFAULTS, limitFor, type GroupLimit } from "./groups";
export { limiterFor, limiterStore, type LimiterStore } from "./limiters";
export { BODY_IDENTIFIERS, ipSubject, userSubject } from "./subjects";
