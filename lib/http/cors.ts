import type { Tenant } from "@/lib/tenants";
import type { Contract } from "@/lib/contracts/contract";

/** Session response headers the public API's browser clients read (Hanko's SDK). */
const SESSION_EXPOSED = ["X-Auth-Token", "X-Session-Lifetime", "X-Session-Retention"];
const RATE_LIMIT_EXPOSED = ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const DEPRECATION_EXPOSED = ["Deprecation", "Link"];

/** What a browser may read: everything on credentialed routes, else what this contract can send. */
function exposedHeaders(contract: Contract): string[] {
  if (contract.cors === "tenant-credentials") {
    return ["X-Request-Id", ...SESSION_EXPOSED, ...RATE_LIMIT_EXPOSED, ...DEPRECATION_EXPOSED];
  }
  return [
    "X-Request-Id",
    ...(contract.rateLimit ? RATE_LIMIT_EXPOSED : []),
    ...(contract.deprecated ? DEPRECATION_EXPOSED : []),
  ];
}

/** Request headers a browser may ask to send: only header-name tokens are echoed back. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;
const PREFLIGHT_MAX_AGE = "7200";

/** The origin to allow for this request, or undefined when it may not read the response. */
export function allowedOrigin(
  req: Request,
  contract: Contract,
  tenant: Tenant | undefined,
): string | undefined {
  if (contract.cors === "any") return "*";
  const origin = req.headers.get("origin");
  if ((contract.cors !== "tenant-origins" && contract.cors !== "tenant-credentials") || !origin || !tenant) {
    return undefined;
  }
  return tenant.origins.includes(origin) ? origin : undefined;
}

/** Adds the CORS response headers of an actual (non-preflight) request. */
export function applyCors(response: Response, origin: string | undefined, contract: Contract): void {
  if (!contract.cors) return;
  if (contract.cors !== "any") response.headers.append("vary", "Origin");
  if (!origin) return;
  response.headers.set("access-control-allow-origin", origin);
  if (contract.cors === "tenant-credentials")
    response.headers.set("access-control-allow-credentials", "true");
  response.headers.set("access-control-expose-headers", exposedHeaders(contract).join(", "));
}

/** The answer to a CORS preflight for `methods` of one path. */
export function preflightResponse(
  req: Request,
  origin: string | undefined,
  methods: string[],
  credentials = false,
): Response {
  const headers = new Headers({ vary: "Origin", "cache-control": "no-store" });
  if (origin) {
    const requested = req.headers.get("access-control-request-headers")?.trim();
    headers.set("access-control-allow-origin", origin);
    headers.set("access-control-allow-methods", [...methods, "OPTIONS"].join(", "));
    if (requested && HEADER_LIST.test(requested)) headers.set("access-control-allow-headers", requested);
    headers.set("access-control-max-age", PREFLIGHT_MAX_AGE);
    if (credentials) headers.set("access-control-allow-credentials", "true");
    headers.delete("cache-control");
  }
  return new Response(null, { status: 204, headers });
}
