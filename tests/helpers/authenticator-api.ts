import * as registrationsRename from "@/app/(authenticator-api)/mgmt/v1/registrations/rename/[deviceId]/route";
import * as registrationsUser from "@/app/(authenticator-api)/mgmt/v1/registrations/[userId]/route";
import * as registrationsDevice from "@/app/(authenticator-api)/mgmt/v1/registrations/[userId]/[deviceId]/route";
import * as appRequest from "@/app/(authenticator-api)/v1/uaf/app/requests/[id]/route";
import * as link from "@/app/(authenticator-api)/v1/uaf/requests/[id]/link/route";
import * as qrcode from "@/app/(authenticator-api)/v1/uaf/requests/[id]/qrcode/route";
import * as request from "@/app/(authenticator-api)/v1/uaf/requests/[id]/route";
import * as requests from "@/app/(authenticator-api)/v1/uaf/requests/route";
import { call } from "./http";

type Handler = Parameters<typeof call>[0];
type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "DELETE", Handler>>;

/** The Authenticator API's route files by path template, static segments first (as Next.js routes). */
const ROUTES: [string, RouteModule][] = [
  ["/v1/uaf/requests", requests],
  ["/v1/uaf/requests/{id}/qrcode", qrcode],
  ["/v1/uaf/requests/{id}/link", link],
  ["/v1/uaf/requests/{id}", request],
  ["/v1/uaf/app/requests/{id}", appRequest],
  ["/mgmt/v1/registrations/rename/{deviceId}", registrationsRename],
  ["/mgmt/v1/registrations/{userId}/{deviceId}", registrationsDevice],
  ["/mgmt/v1/registrations/{userId}", registrationsUser],
];

function match(template: string, path: string): Record<string, string> | undefined {
  const want = template.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) params[name] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return undefined;
  }
  return params;
}

export interface AuthenticatorCall {
  body?: unknown;
  /** Sent as `Authorization: secret <key>` unless `scheme` says otherwise. */
  apiKey?: string;
  scheme?: string;
  headers?: Record<string, string>;
}

/** Calls the real Authenticator API route handlers in-process, routed as Next.js would (query kept). */
export async function authenticatorRequest(
  method: keyof RouteModule,
  path: string,
  options: AuthenticatorCall = {},
): Promise<Response> {
  const [pathname = ""] = path.split("?");
  for (const [template, module] of ROUTES) {
    const params = match(template, pathname);
    if (!params) continue;
    const handler = module[method];
    if (!handler) throw new Error(`${template} has no ${method}`);
    const auth: Record<string, string> = options.apiKey
      ? { authorization: `${options.scheme ?? "secret"} ${options.apiKey}` }
      : {};
    return call(handler, path, {
      method,
      body: options.body,
      params,
      headers: { ...auth, ...options.headers },
    });
  }
  throw new Error(`no Authenticator API route for ${method} ${pathname}`);
}
