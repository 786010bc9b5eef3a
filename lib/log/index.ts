import pino, { type Logger } from "pino";
import { getConfig } from "@/lib/config";

const KEY = Symbol.for("sesame.logger");
type Holder = { [KEY]?: Logger };

/**
 * The process logger: JSON lines on stdout (stderr for the CLI). Secrets that may travel in
 * headers are redacted here once, so no call site has to remember.
 */
export function getLogger(): Logger {
  const holder = globalThis as Holder;
  holder[KEY] ??= pino(
    {
      level: getConfig().logLevel,
      base: { service: "sesame" },
      redact: {
        paths: ["headers.authorization", "headers.apikey", "headers.cookie", "apiKey", "secret", "token"],
        censor: "[redacted]",
      },
    },
    process.env.SESAME_LOG_TO_STDERR === "1" ? pino.destination(2) : pino.destination(1),
  );
  return holder[KEY];
}
