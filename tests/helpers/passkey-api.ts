import * as jwksJson from "@/app/(passkey-api)/passkey/[tenantId]/.well-known/jwks.json/route";
import * as credential from "@/app/(passkey-api)/passkey/[tenantId]/credentials/[credentialId]/route";
import * as credentials from "@/app/(passkey-api)/passkey/[tenantId]/credentials/route";
import * as loginFinalize from "@/app/(passkey-api)/passkey/[tenantId]/login/finalize/route";
import * as loginInitialize from "@/app/(passkey-api)/passkey/[tenantId]/login/initialize/route";
import * as mfaLoginFinalize from "@/app/(passkey-api)/passkey/[tenantId]/mfa/login/finalize/route";
import * as mfaLoginInitialize from "@/app/(passkey-api)/passkey/[tenantId]/mfa/login/initialize/route";
import * as mfaRegistrationFinalize from "@/app/(passkey-api)/passkey/[tenantId]/mfa/registration/finalize/route";
import * as mfaRegistrationInitialize from "@/app/(passkey-api)/passkey/[tenantId]/mfa/registration/initialize/route";
import * as registrationFinalize from "@/app/(passkey-api)/passkey/[tenantId]/registration/finalize/route";
import * as registrationInitialize from "@/app/(passkey-api)/passkey/[tenantId]/registration/initialize/route";
import * as transactionList from "@/app/(passkey-api)/passkey/[tenantId]/transaction/[userId]/route";
import * as transactionFinalize from "@/app/(passkey-api)/passkey/[tenantId]/transaction/finalize/route";
import * as transactionInitialize from "@/app/(passkey-api)/passkey/[tenantId]/transaction/initialize/route";
import { call } from "./http";
import { matchTemplate } from "./routes";

type Handler = Parameters<typeof call>[0];
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "DELETE" | "OPTIONS", Handler>>;

/** The Passkey API's route files by path template below `/passkey/{tenantId}`, static paths first. */
const ROUTES: [string, RouteModule][] = [
  ["/registration/initialize", registrationInitialize],
  ["/registration/finalize", registrationFinalize],
  ["/login/initialize", loginInitialize],
  ["/login/finalize", loginFinalize],
  ["/mfa/registration/initialize", mfaRegistrationInitialize],
  ["/mfa/registration/finalize", mfaRegistrationFinalize],
  ["/mfa/login/initialize", mfaLoginInitialize],
  ["/mfa/login/finalize", mfaLoginFinalize],
  ["/transaction/initialize", transactionInitialize],
  ["/transaction/finalize", transactionFinalize],
  ["/.well-known/jwks.json", jwksJson],
  ["/credentials", credentials],
  ["/transaction/{userId}", transactionList],
  ["/credentials/{credentialId}", credential],
];

export interface PasskeyRequest {
  body?: unknown;
  apiKey?: string;
  headers?: Record<string, string>;
}

/**
 * Calls the real Passkey API route handlers in-process, routed like Next.js would route
 * `/passkey/{tenantId}/…` (the path's query string is kept).
 */
export async function passkeyRequest(
  tenantId: string,
  method: keyof RouteModule,
  path: string,
  request: PasskeyRequest = {},
): Promise<Response> {
  const [pathname = "", search = ""] = path.split("?");
  for (const [template, module] of ROUTES) {
    const params = matchTemplate(template, pathname);
    const handler = params && module[method];
    if (!params || !handler) continue;
    return call(handler, `/passkey/${tenantId}${path}`, {
      method,
      body: request.body,
      params: { tenantId, ...params },
      headers: { ...(request.apiKey ? { apikey: request.apiKey } : {}), ...request.headers },
    });
  }
  throw new Error(`no Passkey API route for ${method} ${pathname}${search ? "?" : ""}`);
}
