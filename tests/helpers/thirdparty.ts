import { expect } from "vitest";
import * as callbackRoute from "@/app/(public-api)/t/[tenantId]/thirdparty/callback/route";
import * as startRoute from "@/app/(public-api)/t/[tenantId]/thirdparty/[provider]/route";
import type { Tenant } from "@/lib/tenants";
import { BROWSER_COOKIE } from "@/lib/thirdparty";
import { followPeer } from "./oidc-peer";
import { publicCall } from "./public-api";
import { THIS_BROWSER } from "./token-binding";

export const REDIRECT_TO = "http://localhost:3000/app/after-login";

/** The binding cookie's value a start response set. */
export function browserCookie(res: Response): string | undefined {
  const line = res.headers.getSetCookie().find((value) => value.startsWith(`${BROWSER_COOKIE}=`));
  return line ? line.slice(BROWSER_COOKIE.length + 1).split(";")[0] : undefined;
}

/** GET /thirdparty/{provider}: the response (302 to the provider, or an error). */
export function startAt(tenant: Tenant, provider: string, redirectTo = REDIRECT_TO, cookie?: string) {
  return publicCall(
    startRoute.GET,
    tenant,
    "GET",
    `/thirdparty/${provider}?redirect_to=${encodeURIComponent(redirectTo)}`,
    cookie ? { headers: { cookie: `${BROWSER_COOKIE}=${cookie}` } } : {},
    { provider },
  );
}

/** GET /thirdparty/callback with the URL the provider sent the browser to, and the browser's cookie. */
export function callBack(tenant: Tenant, callbackUrl: URL, cookie?: string) {
  return publicCall(
    callbackRoute.GET,
    tenant,
    "GET",
    `/thirdparty/callback${callbackUrl.search}`,
    cookie ? { headers: { cookie: `${BROWSER_COOKIE}=${cookie}` } } : {},
  );
}

/**
 * Starts in a browser (by default the test's: its binding cookie THIS_BROWSER, which the start keeps; null:
 * a browser without one), signs in at the peer, and answers the provider's redirect back (not yet called)
 * and the cookie.
 */
export async function authorizeAtPeer(
  tenant: Tenant,
  provider: string,
  redirectTo = REDIRECT_TO,
  browser: string | null = THIS_BROWSER,
) {
  const start = await startAt(tenant, provider, redirectTo, browser ?? undefined);
  expect(start.status, await start.clone().text()).toBe(302);
  const cookie = browserCookie(start)!;
  const callbackUrl = await followPeer(start.headers.get("location")!);
  return { start, cookie, callbackUrl };
}

/** The whole sign-in: answers the callback's response and its Location. */
export async function signInThroughPeer(tenant: Tenant, provider: string, redirectTo = REDIRECT_TO) {
  const { cookie, callbackUrl } = await authorizeAtPeer(tenant, provider, redirectTo);
  const res = await callBack(tenant, callbackUrl, cookie);
  expect(res.status, await res.clone().text()).toBe(302);
  return { res, location: new URL(res.headers.get("location")!) };
}
