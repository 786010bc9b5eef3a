"use client";

/**
 * The browser half of the console sign-in: next-auth 4's credentials callback and sign-out, called
 * as next-auth/react would (csrf token, `json: true`), under the console's base path.
 */
const BASE = "/console/api/auth";

async function csrfToken(): Promise<string> {
  const response = await fetch(`${BASE}/csrf`, { credentials: "same-origin" });
  const body = (await response.json()) as { csrfToken: string };
  return body.csrfToken;
}

/** Sends the WebAuthn assertion to the `passkey` provider; true when a console session was opened. */
export async function signInWithAssertion(assertion: unknown): Promise<boolean> {
  const response = await fetch(`${BASE}/callback/passkey`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body: new URLSearchParams({
      csrfToken: await csrfToken(),
      response: JSON.stringify(assertion),
      callbackUrl: "/console",
      json: "true",
    }),
  });
  if (!response.ok) return false;
  const { url } = (await response.json()) as { url?: string };
  return typeof url === "string" && !new URL(url, location.origin).searchParams.has("error");
}

export async function signOut(): Promise<void> {
  await fetch(`${BASE}/signout`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body: new URLSearchParams({
      csrfToken: await csrfToken(),
      callbackUrl: "/console/sign-in",
      json: "true",
    }),
  });
}
