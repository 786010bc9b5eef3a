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
 * Admission control: requests begin one at a time, a few turns of the event loop apart (see `turn`); with
 * SESAME_MAX_REQUESTS_IN_FLIGHT requests begun or waiting to begin (default 24), another is answered at
 * once with 503 and Retry-After in its surface's error shape (scripts/lib/admission.mjs), on a connection
 * that stays open; the health probes are always admitted and skip the line.
 *
 * Environment: PORT (default 3000), SESAME_ADMIN_PORT (unset: one port), SESAME_SHUTDOWN_GRACE_SECONDS,
 * SESAME_MAX_REQUESTS_IN_FLIGHT, and all of Sesame's settings, which the app validates at boot.
 */
import http from "node:http";
import path from "node:path";
import process from "node:process";
import { clearInterval, clearTimeout, setImmediate, setInterval, setTimeout } from "node:timers";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_MAX_IN_FLIGHT,
  isExempt,
  maxInFlightProblem,
  overloadAnswer,
  overloadRetryAfter,
} from "./lib/admission.mjs";
import { answersOn, portProblem } from "./lib/listener-paths.mjs";
import { registerServer } from "./lib/running-servers.mjs";

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

/**
 * Connections the kernel may hold for the event loop to accept (Linux caps it at net.core.somaxconn,
 * 4096 by default since 5.4). Node's default, 511, overflows when a thousand clients connect at once: the
 * kernel then drops their SYNs, which clients resend after 1, 3, 7, 15, 31 and 63 s, so a request's
 * time grows by a minute before Sesame ever sees it (docs/operations.md, overload).
 */
const LISTEN_BACKLOG = 4096;

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// So that `npm start` or `npm run build` in this folder does not rebuild `.next` under this server.
registerServer(dir);
const { default: next } = await import("next");

const server = http.createServer();
const adminServer = adminPort === undefined ? undefined : http.createServer();
const app = next({ dev: false, dir, hostname: "localhost", port, httpServer: server });
const handle = app.getRequestHandler();

// Listening first and holding requests until Next.js is ready, as `next start` does, so the banner
// instrumentation.ts prints during prepare() means the port already answers.
server.on("error", (error) => fail(`The server could not listen on port ${port}: ${error.message}`));
server.listen({ port, backlog: LISTEN_BACKLOG });
adminServer?.on("error", (error) =>
  fail(`The server could not listen on the admin port ${adminPort}: ${error.message}`),
);
adminServer?.listen({ port: adminPort, backlog: LISTEN_BACKLOG }, () => {
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
// Per socket: has it carried a request, is one in progress (for the idle sweep while draining).
const SERVED = Symbol("served");
const BUSY = Symbol("busy");
const ACCEPTED = Symbol("accepted");
/** A connection that has sent nothing for this long is a browser's preconnection (or a slow client). */
const SILENT_MS = 1000;
const sockets = new Set();
for (const listener of [server, adminServer].filter(Boolean)) {
  listener.on("connection", (socket) => {
    socket[ACCEPTED] = Date.now();
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
}

/**
 * Ends the keep-alive connections that sit idle between requests, and those that have sent nothing for
 * SILENT_MS (a browser's preconnection, which it opens again elsewhere). Not Node's
 * closeIdleConnections(): it also ends a connection just accepted whose request has not been read yet,
 * which its client sees reset; such a connection is left to send its request (answered with
 * `Connection: close`).
 */
function closeIdleKeepAlive() {
  const now = Date.now();
  for (const socket of sockets) {
    if (socket[BUSY]) continue;
    const silent = !socket[SERVED] && socket.bytesRead === 0 && now - socket[ACCEPTED] >= SILENT_MS;
    if (socket[SERVED] || silent) socket.destroy();
  }
}

/**
 * Resolves after the event loop has gone once more through its poll phase, which accepts every
 * connection waiting in the listeners' accept queues: the kernel resets those still queued when a
 * listener closes, and their clients believe they had connected.
 */
const acceptQueued = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Requests begin one at a time, in the order they came, a few turns of the event loop apart. libuv
 * accepts one connection per turn (since 1.45), and on the embedded database a request often runs to
 * its end without yielding (PGlite answers in the same thread): if every request read in a turn began
 * at once, a turn would last as long as all of them, new connections would wait in the kernel's accept
 * queue for seconds, and the queue of requests would be in the sockets, where nothing counts it. Begun
 * one by one, the requests waiting their turn are counted in flight, so SESAME_MAX_REQUESTS_IN_FLIGHT
 * bounds them, and turns stay short, so connections are accepted faster than requests are served.
 * Health probes skip the line. On Postgres a request yields at its first statement, so the line is
 * short and costs a few microseconds.
 * @type {(() => void)[]}
 */
const waiting = [];
/**
 * Turns of the loop between two requests' beginnings while requests wait: each turn accepts one more
 * waiting connection and reads what the open ones sent, so a thousand clients connecting at once are
 * accepted in about 1000 / 16 requests' time rather than 1000. An empty turn costs about 2 µs.
 */
const TURNS_PER_REQUEST = 16;
let turnsLeft = 0;
function beginNext() {
  if (--turnsLeft > 0) {
    setImmediate(beginNext);
    return;
  }
  waiting.shift()?.();
  // Once the line is empty, the next request begins at the next turn.
  turnsLeft = waiting.length > 0 ? TURNS_PER_REQUEST : 0;
  if (waiting.length > 0) setImmediate(beginNext);
}
/** Resolves when it is this request's turn to begin. */
function turn() {
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) setImmediate(beginNext);
  });
}

/** @param {"public" | "admin"} listener */
const serve = (listener) => async (req, res) => {
  const exempt = isExempt(req.url);
  if (inFlight >= maxInFlight && !exempt) {
    shed++;
    req.socket[SERVED] = true;
    const answer = overloadAnswer(req.url, overloadRetryAfter());
    // The connection stays open (unless draining): a client told to come back in a few seconds comes back
    // on it, rather than with a new connection each time, which costs more than the refusal.
    if (closing) answer.headers.connection = "close";
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return;
  }
  inFlight++;
  req.socket[SERVED] = true;
  req.socket[BUSY] = true;
  res.once("close", () => {
    inFlight--;
    req.socket[BUSY] = false;
  });
  // While draining, every answer ends its connection: the client's next request opens a new one,
  // which reaches another instance.
  if (closing) res.setHeader("connection", "close");
  if (adminServer && !answersOn(listener, req.url)) {
    notFound(res);
    return;
  }
  try {
    await ready;
    if (!exempt) await turn();
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
  await acceptQueued();
  const finished = requestsFinished(listeners);
  const sweep = setInterval(closeIdleKeepAlive, 100);
  let cut = false;
  try {
    await ready.catch(() => {});
    const work = globalThis[SHUTDOWN]?.(finished);
    cut = await finished;
    clearInterval(sweep);
    if (cut) listeners.forEach((listener) => listener.closeAllConnections());
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
