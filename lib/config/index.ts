export {
  ConfigError,
  firstHostUrl,
  getConfig,
  isLocalUrl,
  isLoopbackAddress,
  parseCidr,
  parseConfig,
  type Config,
  type LogLevel,
} from "./env";
