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
 * With SESAME_ADMIN_PORT set, the same process listens on that port too, for the admin side: the admin
 * API (`/t/<id>/admin…`), `/metrics` and the console answer there only and are a 404 on PORT; the
 * public side answers on PORT only; the health probes and Next.js's assets on both
 * (scripts/lib/listener-paths.mjs; docs/metrics.md). Which port a request came in on is the socket's,
 * so no header can move a request to the other side.
 *
 * On SIGTERM (or SIGINT) it shuts down gracefully, so a rolling restart fails no request: `/readyz`
 * answers 503 at once, both ports stop accepting connections, the requests in flight finish (for at most
 * SESAME_SHUTDOWN_GRACE_SECONDS, default 25; responses meanwhile say `Connection: close`), the webhook
 * worker hands back the deliveries it could not finish, the database closes, and the process exits 0
 * (1 when the grace period cut requests short). docs/operations.md has the Kubernetes settings.
 *
 * Admission control: with SESAME_MAX_REQUESTS_IN_FLIGHT requests in flight (default 256), another is
 * answered at once with 503 and Retry-After in its surface's error shape (scripts/lib/admission.mjs); the
 * health probes are always admitted.
 *
 * Environment: PORT (default 3000), SESAME_ADMIN_PORT (unset: one port), SESAME_SHUTDOWN_GRACE_SECONDS,
 * SESAME_MAX_REQUESTS_IN_FLIGHT, and all of Sesame's settings, which the app validates at boot.
 */
import http from "node:http";
import path from "node:path";
import process from "node:process";
import { clearInterval, clearTimeout, setInterval, setTimeout } from "node:timers";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_MAX_IN_FLIGHT,
  OVERLOAD_RETRY_AFTER_SECONDS,
  isExempt,
  maxInFlightProblem,
  overloadAnswer,
} from "./lib/admission.mjs";
import { answersOn, portProblem } from "./lib/listener-paths.mjs";

// As `next start`: production unless NODE_ENV says otherwise.
process.env.NODE_ENV ||= "production";
process.env.NEXT_TELEMETRY_DISABLED ||= "1";

const fail = (message) => {
  process.stderr.write(`\nSesame could not start.\n${message}\n\n`);
  process.exit(1);
};

const portText = process.env.PORT || "3000";
const port = Number(portText);
if (portProblem(portText)) {
  fail(`Invalid configuration:\n  PORT=${JSON.stringify(portText)}: ${portProblem(portText)}`);
}
// Checked here as PORT is (lib/config checks both again at boot, with the same message).
const adminPortText = process.env.SESAME_ADMIN_PORT || undefined;
const adminPort = adminPortText === undefined ? undefined : Number(adminPortText);
if (adminPortText !== undefined && (portProblem(adminPortText) || adminPort === port)) {
  fail(
    `Invalid configuration:\n  SESAME_ADMIN_PORT=${JSON.stringify(adminPortText)}: ` +
      "must be a whole number from 1 to 65535, other than PORT",
  );
}

const graceText = process.env.SESAME_SHUTDOWN_GRACE_SECONDS || "25";
const graceSeconds = Number(graceText);
if (!/^\d+$/.test(graceText) || graceSeconds > 3600) {
  fail(
    `Invalid configuration:\n  SESAME_SHUTDOWN_GRACE_SECONDS=${JSON.stringify(graceText)}: ` +
      "must be a whole number of seconds from 0 to 3600",
  );
}

const maxInFlightText = process.env.SESAME_MAX_REQUESTS_IN_FLIGHT || String(DEFAULT_MAX_IN_FLIGHT);
if (maxInFlightProblem(maxInFlightText)) {
  fail(
    `Invalid configuration:\n  SESAME_MAX_REQUESTS_IN_FLIGHT=${JSON.stringify(maxInFlightText)}: ` +
      maxInFlightProblem(maxInFlightText),
  );
}
const maxInFlight = Number(maxInFlightText);
let shed = 0;
// Read by lib/metrics (sesame_http_requests_in_flight, sesame_http_requests_shed_total).
const ADMISSION = Symbol.for("sesame.admission");
globalThis[ADMISSION] = { inFlight: () => inFlight, shed: () => shed, max: maxInFlight };

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

const DIRECT_ROUTES = Symbol.for("sesame.directRoutes");

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { default: next } = await import("next");

const server = http.createServer();
const adminServer = adminPort === undefined ? undefined : http.createServer();
const app = next({ dev: false, dir, hostname: "localhost", port, httpServer: server });
const handle = app.getRequestHandler();

// Listening first and holding requests until Next.js is ready, as `next start` does, so the banner
// instrumentation.ts prints during prepare() means the port already answers.
server.on("error", (error) => fail(`The server could not listen on port ${port}: ${error.message}`));
server.listen(port);
adminServer?.on("error", (error) =>
  fail(`The server could not listen on the admin port ${adminPort}: ${error.message}`),
);
adminServer?.listen(adminPort, () => {
  process.stdout.write(`Admin port ${adminPort}: admin API, /metrics and console (a 404 on port ${port})\n`);
});
const ready = app.prepare();
ready.catch((error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));

/** What the other port serves is not found here: the platform error shape, before Next.js sees it. */
function notFound(res) {
  res.writeHead(404, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify({ code: 404, message: "Not Found" }));
}

// Read by lib/health (readiness) once the process is shutting down.
const DRAINING = Symbol.for("sesame.draining");
// lib/boot's shutdown(requestsDone): background work, webhook worker, database.
const SHUTDOWN = Symbol.for("sesame.shutdown");
let closing = false;
let inFlight = 0;

/** @param {"public" | "admin"} listener */
const serve = (listener) => async (req, res) => {
  if (inFlight >= maxInFlight && !isExempt(req.url)) {
    shed++;
    const answer = overloadAnswer(req.url, OVERLOAD_RETRY_AFTER_SECONDS);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return;
  }
  inFlight++;
  res.once("close", () => inFlight--);
  // While draining, every answer ends its connection: the client's next request opens a new one,
  // which reaches another instance.
  if (closing) res.setHeader("connection", "close");
  if (adminServer && !answersOn(listener, req.url)) {
    notFound(res);
    return;
  }
  try {
    await ready;
    appendSocketAddress(req);
    // The Passkey API's hot ceremony routes, by their own handlers without Next.js's routing
    // (lib/http/direct.ts, installed by instrumentation.ts); false for anything else.
    if (globalThis[DIRECT_ROUTES]?.(req, res)) return;
    await handle(req, res);
  } catch (error) {
    process.stderr.write(`Failed to handle request for ${req.url}: ${error?.stack ?? String(error)}\n`);
    if (!res.headersSent) res.statusCode = 500;
    res.end("Internal Server Error");
  }
};
server.on("request", serve("public"));
adminServer?.on("request", serve("admin"));

/**
 * Closes the listeners and resolves once every connection has ended (no request in flight, none
 * accepted but not yet read), or after the grace period (true when it cut requests short).
 */
function requestsFinished(listeners) {
  return new Promise((resolve) => {
    const grace = setTimeout(() => resolve(true), graceSeconds * 1000);
    const closed = listeners.map((listener) => new Promise((done) => listener.close(() => done())));
    void Promise.all(closed).then(() => {
      clearTimeout(grace);
      resolve(false);
    });
  });
}

/**
 * Graceful shutdown: not ready at once, no new connections, the requests in flight finished, idle
 * keep-alive connections closed as they become idle, then lib/boot's shutdown (webhook worker hands
 * back its deliveries, database closed) and exit 0.
 */
async function shutdown() {
  closing = true;
  globalThis[DRAINING] = true;
  const listeners = [server, adminServer].filter(Boolean);
  const finished = requestsFinished(listeners);
  const sweep = setInterval(() => listeners.forEach((listener) => listener.closeIdleConnections()), 100);
  let cut = false;
  try {
    await ready.catch(() => {});
    const work = globalThis[SHUTDOWN]?.(finished);
    cut = await finished;
    clearInterval(sweep);
    for (const listener of listeners) {
      if (cut) listener.closeAllConnections();
      else listener.closeIdleConnections();
    }
    await work;
    await app.close();
  } catch (error) {
    process.stderr.write(`Shutdown failed: ${error?.stack ?? String(error)}\n`);
    cut = true;
  }
  process.exit(cut ? 1 : 0);
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (!closing) void shutdown();
  });
}
