export {
  DEFAULT_TTL_SECONDS,
  MAX_TTL_SECONDS,
  exchangeOneTimeToken,
  mintOneTimeToken,
} from "./one-time-tokens";
