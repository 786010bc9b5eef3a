/**
 * Admission control for scripts/server.mjs: past a bound on requests in flight, a request is answered at
 * once with 503 and Retry-After in its surface's error shape, without reaching Next.js, so overload
 * degrades into quick refusals instead of a heap that grows until the process dies (docs/operations.md).
 * The health probes are always admitted (a load balancer must still learn how the instance is). Plain
 * JavaScript: server.mjs runs without a compiler.
 */

/** Always admitted, however busy the process is. */
const EXEMPT = new Set(["/livez", "/readyz"]);

/** True when the request (its raw URL) is a health probe. */
export function isExempt(url) {
  const path = (url ?? "/").split("?")[0];
  return EXEMPT.has(path);
}

/** The flow API's paths: `/t/<tenant>/<flow>` (lib/contracts/flow). */
const FLOW = /^\/t\/[^/]+\/(login|registration|profile|token_exchange)\/?$/;

/**
 * The 503 a refused request gets, in the shape its surface answers errors with (lib/http/presenters and
 * lib/flows/errors.ts): the Passkey API's `{title, details, status}`, the flow API's error state, and the
 * platform's `{code, message}` for everything else.
 */
export function overloadAnswer(url, retryAfterSeconds) {
  const path = (url ?? "/").split("?")[0];
  const headers = {
    "content-type": "application/json",
    "cache-control": "no-store",
    "retry-after": String(retryAfterSeconds),
  };
  let body;
  if (path.startsWith("/passkey/")) {
    body = { title: ["Service Unavailable"], details: ["Try again later (Retry-After)."], status: 503 };
  } else if (FLOW.test(path)) {
    body = {
      name: "error",
      status: 503,
      actions: {},
      csrf_token: "",
      error: { code: "technical_error", message: "Something went wrong" },
      links: [],
    };
  } else {
    body = { code: 503, message: "Service Unavailable" };
  }
  return { status: 503, headers, body: JSON.stringify(body) };
}

/** `SESAME_MAX_REQUESTS_IN_FLIGHT`: a whole number from 1 to 100000 (default 24), or an error text. */
export function maxInFlightProblem(text) {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100_000) {
    return "must be a whole number from 1 to 100000";
  }
  return undefined;
}

export const DEFAULT_MAX_IN_FLIGHT = 24;
/** The shortest and longest Retry-After of a refusal, in seconds. */
export const OVERLOAD_RETRY_AFTER_SECONDS = { min: 1, max: 3 };

/**
 * A refusal's Retry-After: a whole number of seconds drawn evenly from 1 to 3. Clients refused in the same
 * moment would otherwise all come back in the same moment, a second later, and be refused together again:
 * the spread breaks those waves up, and a refused client comes back about every 2 s instead of every 1 s
 * (docs/operations.md, Overload).
 */
export function overloadRetryAfter(random = Math.random) {
  const { min, max } = OVERLOAD_RETRY_AFTER_SECONDS;
  return min + Math.min(max - min, Math.floor(random() * (max - min + 1)));
}
