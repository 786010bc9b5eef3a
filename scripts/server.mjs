/**
 * Sesame's production server: Next.js's request handler on node:http. `npm start` runs it (after
 * scripts/start.ts has checked the configuration and the build); so do the e2e tests and the bench.
 *
 * Every request gets the socket's address as its last `X-Forwarded-For` entry, whatever the client sent
 * (`next start` adds it only when the request carries none, so a client could name its own IP). The
 * entries before it stay, for the reverse proxies named in SESAME_TRUSTED_PROXIES; the client IP is
 * taken in lib/http/request-context.ts (docs/decisions.md, Client IP). Plain JavaScript, so
 * `node scripts/server.mjs` runs without tsx and is the one process serving requests.
 *
 * Environment: PORT (default 3000), and all of Sesame's settings, which the app validates at boot.
 */
import http from "node:http";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

// As `next start`: production unless NODE_ENV says otherwise.
process.env.NODE_ENV ||= "production";
process.env.NEXT_TELEMETRY_DISABLED ||= "1";

const fail = (message) => {
  process.stderr.write(`\nSesame could not start.\n${message}\n\n`);
  process.exit(1);
};

const portText = process.env.PORT || "3000";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
  fail(`Invalid configuration:\n  PORT=${JSON.stringify(portText)}: must be a whole number from 1 to 65535`);
}

/** How Node reports an IPv4 peer on a dual-stack socket (`::ffff:127.0.0.1`) is the IPv4 address. */
function socketAddress(socket) {
  const address = socket.remoteAddress ?? "";
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/**
 * Appends the socket's address to `X-Forwarded-For` (Node joins repeated headers with ", "). When the
 * socket has no address any more (the client has gone), the last entry is left empty: no client IP
 * rather than the client's own claim.
 */
function appendSocketAddress(req) {
  const sent = req.headers["x-forwarded-for"]?.trim();
  const own = socketAddress(req.socket);
  req.headers["x-forwarded-for"] = sent ? `${sent}, ${own}` : own;
}

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { default: next } = await import("next");

const server = http.createServer();
const app = next({ dev: false, dir, hostname: "localhost", port, httpServer: server });
const handle = app.getRequestHandler();

// Listening first and holding requests until Next.js is ready, as `next start` does, so the banner
// instrumentation.ts prints during prepare() means the port already answers.
server.on("error", (error) => fail(`The server could not listen on port ${port}: ${error.message}`));
server.listen(port);
const ready = app.prepare();
ready.catch((error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));

server.on("request", async (req, res) => {
  try {
    await ready;
    appendSocketAddress(req);
    await handle(req, res);
  } catch (error) {
    process.stderr.write(`Failed to handle request for ${req.url}: ${error?.stack ?? String(error)}\n`);
    if (!res.headersSent) res.statusCode = 500;
    res.end("Internal Server Error");
  }
});

// As `next start`: stop accepting, finish pending requests, close Next.js, exit 130 (SIGINT) or 143 (SIGTERM).
let closing = false;
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close(() => {
      app
        .close()
        .catch((error) => process.stderr.write(`${error?.stack ?? String(error)}\n`))
        .finally(() => process.exit(code));
    });
  });
}
