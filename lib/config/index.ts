export { ConfigError, getConfig, parseCidr, parseConfig, type Config, type LogLevel } from "./env";
