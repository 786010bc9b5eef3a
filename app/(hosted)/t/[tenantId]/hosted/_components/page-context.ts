import "server-only";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { hostedBranding, type HostedBranding } from "@/lib/hosted/branding";
import { isHostedLang, pickLang, type HostedLang } from "@/lib/hosted/lang";
import { loadHostedTenant } from "@/lib/hosted/load-tenant";
import { messages, type HostedMessages } from "@/lib/hosted/messages";
import { firstValue, type HostedPage } from "@/lib/hosted/paths";
import type { Tenant } from "@/lib/tenants";

export type HostedParams = Promise<{ tenantId: string }>;
export type HostedSearch = Promise<Record<string, string | string[] | undefined>>;

export interface HostedPageContext {
  tenant: Tenant;
  branding: HostedBranding;
  lang: HostedLang;
  /** `lang` to carry into links: only when the page was asked for one with `?lang=`. */
  langQuery: HostedLang | undefined;
  /** The raw `redirect_to` (first value); check it with safeRedirect before any use. */
  redirectTo: string | undefined;
  /** `login_hint` (OpenID Connect): the login's identifier field starts with it. */
  loginHint: string | undefined;
  /** `prompt=login`: the user must sign in again, even with a session (OpenID Connect `prompt`, `max_age`). */
  promptLogin: boolean;
  t: HostedMessages;
}

/** Tenant (404 when unknown), language and branding of a hosted page request. */
export async function hostedPageContext(
  params: HostedParams,
  searchParams: HostedSearch,
): Promise<HostedPageContext> {
  const { tenantId } = await params;
  const tenant = await loadHostedTenant(tenantId);
  if (!tenant) notFound();
  const search = await searchParams;
  const requested = firstValue(search.lang);
  const lang = pickLang(requested, (await headers()).get("accept-language"));
  return {
    tenant,
    branding: hostedBranding(tenant.name, tenant.branding),
    lang,
    langQuery: isHostedLang(requested) ? requested : undefined,
    redirectTo: firstValue(search.redirect_to),
    loginHint: firstValue(search.login_hint)?.slice(0, 256),
    promptLogin: firstValue(search.prompt) === "login",
    t: messages(lang),
  };
}

const TITLES: Record<HostedPage, keyof HostedMessages> = {
  login: "loginTitle",
  profile: "profileTitle",
  logout: "logoutTitle",
};

/** `<title>`: what the page is for and whose it is. Never throws: an unknown tenant gets a plain title. */
export async function hostedMetadata(
  page: HostedPage,
  params: HostedParams,
  searchParams: HostedSearch,
): Promise<Metadata> {
  const { tenantId } = await params;
  const tenant = await loadHostedTenant(tenantId).catch(() => undefined);
  const lang = pickLang(firstValue((await searchParams).lang), (await headers()).get("accept-language"));
  const t = messages(lang);
  if (!tenant) return { title: t.notFoundTitle, robots: { index: false } };
  return {
    title: `${t[TITLES[page]]} · ${tenant.branding.displayName ?? tenant.name}`,
    robots: { index: false },
  };
}
