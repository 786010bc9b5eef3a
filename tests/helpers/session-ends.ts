import { eq, sql } from "drizzle-orm";
import { expect, vi } from "vitest";
import * as logoutRoute from "@/app/(public-api)/t/[tenantId]/logout/route";
import { SesameClient } from "@/elements/src/client";
import { deleteAdminUser, setAccountLocked } from "@/lib/accounts";
import { executor } from "@/lib/db";
import { sessions } from "@/lib/db/schema";
import { revokeSessionOfUser } from "@/lib/sessions";
import { act, expectState, startFlow } from "./flows";
import { logOutAtProvider, ORIGIN, type Setup } from "./openid";
import { sessionFor, TEST_CONTEXT } from "./public-api";

/**
 * The ways a Sesame session ends, each as a user, an admin or the clock does it, for the session the
 * setup's browser holds (`sessionId`; `idToken` for RP-initiated logout). The tenant must allow account
 * deletion for "account deleted in the profile flow"; the user must be a platform user for the flows.
 */
export const SESSION_ENDS = {
  "sign-out (public API POST /logout)": async (setup: Setup) => {
    const response = await logoutRoute.POST(
      new Request(`${ORIGIN}/t/${setup.tenant.id}/logout`, {
        method: "POST",
        headers: { cookie: browserCookie(setup), origin: ORIGIN },
      }),
      { params: Promise.resolve({ tenantId: setup.tenant.id }) },
    );
    expect(response.status).toBe(204);
  },
  "the hosted logout page (the elements' logout())": hostedLogout,
  "another session ends it in the profile flow (flow API session_delete)": async (
    setup: Setup,
    sessionId: string,
  ) => {
    const other = await sessionFor(setup.tenant, setup.user);
    const profile = await openProfile(setup, other);
    const ended = await act(
      setup.tenant,
      profile,
      "session_delete",
      { session_id: sessionId },
      { token: other },
    );
    expectState(ended, "profile_init");
  },
  "the account is deleted in the profile flow (flow API account_delete)": async (setup: Setup) => {
    const token = decodeURIComponent(browserCookie(setup).split("=")[1]!);
    const profile = await openProfile(setup, token);
    expectState(await act(setup.tenant, profile, "account_delete", {}, { token }), "account_deleted", []);
  },
  "an admin revokes it": async (setup: Setup, sessionId: string) => {
    await revokeSessionOfUser(setup.tenant.id, setup.user.id, sessionId, TEST_CONTEXT);
  },
  "the user is locked": async (setup: Setup) => {
    await setAccountLocked(setup.tenant, setup.user.id, true, TEST_CONTEXT);
  },
  "the user is deleted": async (setup: Setup) => {
    await deleteAdminUser(setup.tenant, setup.user.id, TEST_CONTEXT);
  },
  "RP-initiated logout": async (setup: Setup, _sessionId: string, idToken: string) => {
    const { done } = await logOutAtProvider(setup, { id_token_hint: idToken });
    expect(done.status).toBe(303);
  },
  // Written in SQL, as another instance (or nobody: the clock) would: nothing of this process is told.
  "the session expires": async (_setup: Setup, sessionId: string) => {
    const db = await executor();
    await db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, sessionId));
  },
} satisfies Record<string, (setup: Setup, sessionId: string, idToken: string) => Promise<void>>;

/** `name=value` of the browser's Sesame session cookie. */
function browserCookie(setup: Setup): string {
  const name = setup.tenant.platform.session.cookie.name;
  const value = setup.browser.cookies.get(name);
  expect(value, "the browser's Sesame session cookie").toBeTruthy();
  return `${name}=${value}`;
}

/** The profile flow of the session `token`, in its first state with actions. */
async function openProfile(setup: Setup, token: string) {
  const start = expectState(await startFlow(setup.tenant, "profile", { token }), "preflight");
  return expectState(
    await act(setup.tenant, start, "register_client_capabilities", { webauthn_available: true }, { token }),
    "profile_init",
  );
}

/**
 * What the hosted logout page does once loaded (app/(hosted)/…/logout): the elements' `SesameClient`
 * `logout()` against the tenant URL, a same-origin request with the browser's cookie. `fetch` answers
 * with the public API's route handler; `document` receives the `sesame-logout` event.
 */
export async function hostedLogout(setup: Setup): Promise<void> {
  const tenantUrl = `${ORIGIN}/t/${setup.tenant.id}`;
  const requests: string[] = [];
  vi.stubGlobal("document", new EventTarget());
  vi.stubGlobal("fetch", async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    requests.push(`${init.method ?? "GET"} ${url.pathname}`);
    expect(url.pathname).toBe(`/t/${setup.tenant.id}/logout`);
    expect(init.credentials).toBe("include");
    const headers = new Headers(init.headers);
    headers.set("cookie", browserCookie(setup));
    headers.set("origin", ORIGIN);
    headers.set("sec-fetch-site", "same-origin");
    const handler = init.method === "DELETE" ? logoutRoute.DELETE : logoutRoute.POST;
    return handler(new Request(url, { ...init, headers }), {
      params: Promise.resolve({ tenantId: setup.tenant.id }),
    });
  });
  const events: Event[] = [];
  try {
    (globalThis as unknown as { document: EventTarget }).document.addEventListener("sesame-logout", (event) =>
      events.push(event),
    );
    await new SesameClient(tenantUrl).logout();
  } finally {
    vi.unstubAllGlobals();
  }
  expect(requests).toEqual([`POST /t/${setup.tenant.id}/logout`]);
  expect(events).toHaveLength(1);
}
