/**
 * Which port answers which path, when Sesame listens on a private admin port too (`SESAME_ADMIN_PORT`).
 * scripts/server.mjs asks {@link answersOn} before Next.js sees a request: the decision rests on the
 * socket the request came in on, never on a header (Host, X-Forwarded-*) a client could write.
 *
 * - admin side, on the admin port only: the admin API (`/t/<id>/admin` and below), `/metrics` and the
 *   console (`/console` and below);
 * - both ports: the health probes (`/livez`, `/readyz`) and what every page needs from Next.js
 *   (`/_next/…`, the favicon), so the console renders on the admin port;
 * - neither port: Next.js's image optimizer (`/_next/image`), which fetches its `url` inside the server,
 *   past this split (`?url=/metrics` on the public port would read the admin side). Sesame uses no
 *   next/image and turns the optimizer off (next.config.js); this keeps it closed even if it came back;
 * - everything else (public, flow, Passkey and Authenticator APIs, hosted pages, docs, examples) on the
 *   public port only.
 *
 * Paths are compared after undoing what a client could use to disguise one: percent-encoding (repeated),
 * backslashes, repeated slashes, `.` and `..` segments, `;` parameters, letter case, an extension on a
 * segment (`metrics.json`) and Next.js's data route (`/_next/data/<build id>/<path>.json` reaches `<path>`). The comparison
 * errs towards the admin side: a disguised path that Next.js would not route anywhere is refused on the
 * public port rather than guessed at. Plain JavaScript: server.mjs runs without a compiler.
 */

import { URL } from "node:url";

/** Both ports answer these (exact paths, or the prefix with a trailing slash). */
const SHARED_EXACT = new Set(["/livez", "/readyz", "/favicon.svg", "/favicon.ico"]);
const SHARED_PREFIXES = ["/_next/"];

/** Undoes percent-encoding, repeatedly (`%252e` is `.` too); bytes become Latin-1 characters. */
function decode(text) {
  let current = text;
  for (let i = 0; i < 10; i += 1) {
    const decoded = current.replace(/%([0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === current) break;
    current = decoded;
  }
  return current;
}

/** Segments without `;` parameters, empty and `.` segments, `..` applied, in lower case. */
function resolve(rawSegments) {
  const segments = [];
  for (const raw of rawSegments) {
    const segment = raw.replace(/;.*$/s, "").trim().toLowerCase();
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments;
}

/**
 * The path of a request target, read two ways: decoded first and then split (`%2F` separates), and split
 * first and then decoded (`%2F` stays inside its segment, as a router reading a parameter sees it).
 * Undefined when the target has no path (`*`, an unparsable absolute URL).
 * @param {string | undefined} target the request line's target (`req.url`)
 * @returns {string[][] | undefined}
 */
export function pathReadings(target) {
  let path = target ?? "";
  if (!path.startsWith("/")) {
    // absolute-form (`GET http://host/path HTTP/1.1`)
    try {
      path = new URL(path).pathname;
    } catch {
      return undefined;
    }
  }
  path = path.replace(/[?#].*$/s, "");
  const split = (text) => text.split(/[/\\]/);
  return [resolve(split(decode(path))), resolve(split(path).map(decode))];
}

/**
 * A segment as a router may read it: without an extension (`metrics.json`, `admin.rsc`,
 * `console.segments`), since Next.js serves data and prefetch variants of a path under such names.
 * @param {string | undefined} segment
 */
const stem = (segment) => segment?.split(".")[0];

/** @param {string[]} segments */
function sideOfSegments(segments) {
  const [first, second, third] = segments.map(stem);
  // `/_next/data/<build id>/<path>.json` is routed to `<path>` itself: it is on the side of that path.
  if (first === "_next" && second === "data") return sideOfSegments(segments.slice(3));
  if (first === "_next" && second === "image") return "none";
  if (first === "metrics" || first === "console") return "admin";
  if (first === "t" && third === "admin") return "admin";
  const path = `/${segments.join("/")}`;
  if (SHARED_EXACT.has(path) || SHARED_PREFIXES.some((prefix) => `${path}/`.startsWith(prefix))) {
    return "shared";
  }
  return "public";
}

/**
 * `admin` (admin API, /metrics, console), `shared` (health probes, Next.js assets), `public` (the
 * rest), `none` (the image optimizer) or `invalid` (no path). None when either reading of the path is,
 * else admin when either is; shared when both are.
 * @param {string | undefined} target
 * @returns {"admin" | "shared" | "public" | "none" | "invalid"}
 */
export function sideOf(target) {
  const readings = pathReadings(target);
  if (!readings) return "invalid";
  const sides = readings.map(sideOfSegments);
  if (sides.includes("none")) return "none";
  if (sides.includes("admin")) return "admin";
  return sides.every((side) => side === "shared") ? "shared" : "public";
}

/**
 * Whether the listener (`public`: PORT, `admin`: SESAME_ADMIN_PORT) answers the request target;
 * server.mjs answers 404 when it does not. Only called when the admin port is set.
 * @param {"public" | "admin"} listener
 * @param {string | undefined} target
 * @returns {boolean}
 */
export function answersOn(listener, target) {
  const side = sideOf(target);
  if (side === "shared") return true;
  if (side === "invalid" || side === "none") return false;
  return side === (listener === "admin" ? "admin" : "public");
}

/**
 * Checks a port setting as PORT is checked; returns the message for an invalid one, else undefined.
 * @param {string} text
 * @returns {string | undefined}
 */
export function portProblem(text) {
  const port = Number(text);
  return /^\d+$/.test(text) && port >= 1 && port <= 65535
    ? undefined
    : "must be a whole number from 1 to 65535";
}
