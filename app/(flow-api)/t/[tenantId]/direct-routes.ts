import { DIRECT_TENANT as TENANT, type DirectRoute } from "@/lib/http/direct";
import * as me from "@/app/(public-api)/t/[tenantId]/me/route";
import * as validate from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import * as login from "./login/route";
import * as profile from "./profile/route";
import * as registration from "./registration/route";
import * as tokenExchange from "./token_exchange/route";

const at = (path: string, module: DirectRoute["module"]): DirectRoute => ({
  pattern: new RegExp(`^/t/${TENANT}/${path}$`),
  params: ["tenantId"],
  module,
});

/**
 * The flow API's routes in Hanko's URL form, and the public API's reads every page load makes, that
 * scripts/server.mjs serves directly (lib/http/direct.ts, issue 27): these route files' own handlers,
 * at these files' paths. None needs anything of Next.js's request context (their handlers read the
 * Request only). tests/http/direct-routes.test.ts checks that each pattern is its file's path.
 */
export const FLOW_DIRECT_ROUTES: readonly DirectRoute[] = [
  at("login", login),
  at("registration", registration),
  at("profile", profile),
  at("token_exchange", tokenExchange),
  at("sessions/validate", validate),
  at("me", me),
];
