export {
  DEFAULT_TTL_SECONDS,
  MAX_TTL_SECONDS,
  exchangeOneTimeToken,
  mintOneTimeToken,
  redeemOneTimeToken,
} from "./one-time-tokens";
