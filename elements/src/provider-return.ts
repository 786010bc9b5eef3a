import type { FlowState } from "./client";
import type { FlowName } from "./events";

/** This page without the parameters a provider's return adds: where a provider sends the browser back. */
export function returnUrl(): string {
  const url = new URL(window.location.href);
  for (const name of RETURN_PARAMS) url.searchParams.delete(name);
  return url.toString();
}

const RETURN_PARAMS = ["hanko_token", "error", "error_description"];
const storageKey = (api: string) => `sesame:${api}:thirdparty`;

/**
 * A fresh `code_verifier` (256 random bits, base64url): sent with the provider action and again with
 * `exchange_token`, so that only this tab can exchange the sign-in's token (as Hanko's elements do).
 */
export function newVerifier(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Keeps the `thirdparty` state (and the verifier) for this tab while the browser is at the provider. */
export function saveProviderState(api: string, flow: FlowName, state: FlowState, verifier: string): void {
  try {
    sessionStorage.setItem(storageKey(api), JSON.stringify({ flow, state, verifier }));
  } catch {
    // Storage refused: the way back starts a token_exchange flow instead.
  }
}

export interface ProviderReturn {
  token: string | undefined;
  /** The verifier sent when this tab left for the provider. */
  verifier: string | undefined;
  error: string | undefined;
  errorDescription: string | undefined;
  saved: { flow: FlowName; state: FlowState } | undefined;
}

/**
 * Reads (and removes from the address bar and storage) what a provider's return left: the one-time
 * token or the error, and the state kept for this tab. Undefined when the page is no such return.
 */
export function takeProviderReturn(api: string): ProviderReturn | undefined {
  const params = new URL(window.location.href).searchParams;
  const token = params.get("hanko_token") || undefined;
  const error = params.get("error") || undefined;
  if (!token && !error) return undefined;
  history.replaceState(history.state, "", returnUrl());
  let saved: ProviderReturn["saved"];
  let verifier: string | undefined;
  try {
    const raw = sessionStorage.getItem(storageKey(api));
    sessionStorage.removeItem(storageKey(api));
    const kept = raw
      ? (JSON.parse(raw) as NonNullable<ProviderReturn["saved"]> & { verifier?: unknown })
      : undefined;
    saved = kept ? { flow: kept.flow, state: kept.state } : undefined;
    verifier = typeof kept?.verifier === "string" ? kept.verifier : undefined;
  } catch {
    saved = undefined;
  }
  return { token, verifier, error, errorDescription: params.get("error_description") || undefined, saved };
}
