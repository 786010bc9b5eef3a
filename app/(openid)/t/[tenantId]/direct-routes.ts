import { DIRECT_TENANT as TENANT, type DirectRoute } from "@/lib/http/direct";
import * as discovery from "./.well-known/openid-configuration/route";
import * as oauth from "./oauth/[...path]/route";

const at = (path: string, module: DirectRoute["module"]): DirectRoute => ({
  pattern: new RegExp(`^/t/${TENANT}/${path.replaceAll(".", "\\.")}$`),
  params: ["tenantId"],
  module,
});

/**
 * The OpenID Provider's endpoints a relying party's login calls, and its discovery and JWKS, that
 * scripts/server.mjs serves directly (lib/http/direct.ts, issue 30): the `oauth/[...path]` catch-all's
 * own handler (and the discovery route's) at these paths. Their handler reads the Request only (no
 * `cookies()` or `headers()` of Next.js); every other path of the catch-all (logout, registration, the
 * interaction route) stays with Next.js. tests/http/direct-routes.test.ts checks that each pattern is a
 * path of its file.
 */
export const OPENID_DIRECT_ROUTES: readonly DirectRoute[] = [
  at("oauth/authorize", oauth),
  at("oauth/token", oauth),
  at("oauth/userinfo", oauth),
  at("oauth/jwks", oauth),
  at("oauth/revoke", oauth),
  at("oauth/introspect", oauth),
  at(".well-known/openid-configuration", discovery),
];
