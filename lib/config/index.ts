export { ConfigError, getConfig, parseConfig, type Config, type LogLevel } from "./env";
