export {
  ConfigError,
  getConfig,
  isLocalUrl,
  parseCidr,
  parseConfig,
  type Config,
  type LogLevel,
} from "./env";
