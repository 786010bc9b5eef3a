export {
  DEFAULT_TTL_SECONDS,
  MAX_TTL_SECONDS,
  exchangeOneTimeToken,
  mintOneTimeToken,
  redeemOneTimeToken,
  type BrowserProof,
  type TokenBinding,
} from "./one-time-tokens";
