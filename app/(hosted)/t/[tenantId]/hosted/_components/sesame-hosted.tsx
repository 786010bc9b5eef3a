"use client";

import { createElement, useCallback, useEffect, useState } from "react";
import type { HostedLang } from "@/lib/hosted/lang";
import { messages } from "@/lib/hosted/messages";
import { hostedButton, hostedLink } from "./hosted-shell";
import {
  ElementsUnavailable,
  logoutOnce,
  registerSesameElements,
  tenantApiUrl,
  type SesameAuthSuccess,
  type SesameClient,
} from "./sesame-elements";

/**
 * The element sits inside the page's one card: its own frame (border, padding, background, width) goes,
 * so the page shows one card, in the tenant's branding. `::part(container)` reaches into the shadow root;
 * `.sesame-container` is the same frame when the elements render in the light DOM.
 */
const EMBEDDED_ELEMENT =
  "block [&::part(container)]:max-w-none [&::part(container)]:border-0 [&::part(container)]:bg-transparent [&::part(container)]:p-0 " +
  "[&_.sesame-container]:max-w-none [&_.sesame-container]:border-0 [&_.sesame-container]:bg-transparent [&_.sesame-container]:p-0";

/** What the page shows; exposed as `data-hosted-state` for tests. */
type State =
  | { name: "confirm" }
  | { name: "loading" }
  | { name: "ready"; sesame: SesameClient }
  | { name: "redirecting" }
  | { name: "signed-out" }
  | { name: "error"; reason: "bundle" | "logout" | "other" };

type Props =
  | {
      view: "login";
      tenantId: string;
      lang: HostedLang;
      /** Where to go after `sesame-auth-success`: already checked by safeRedirect on the server. */
      redirectTo: string;
      /** Prefills the login's identifier (OpenID Connect `login_hint`). */
      loginHint?: string;
      /** A browser with a valid session goes on to `redirectTo` without signing in again. */
      continueSignedIn?: boolean;
    }
  | {
      view: "profile";
      tenantId: string;
      lang: HostedLang;
      /** The hosted login, with `redirect_to` back to this profile page. */
      loginUrl: string;
      logoutUrl: string;
    }
  | {
      view: "logout";
      tenantId: string;
      lang: HostedLang;
      loginUrl: string;
      /** A safe `redirect_to`, or null to stay on the signed-out page. */
      redirectTo: string | null;
      /** Not a same-origin navigation: sign out only after the user clicks "Sign out". */
      askFirst: boolean;
    };

function failure(error: unknown): State {
  return { name: "error", reason: error instanceof ElementsUnavailable ? "bundle" : "other" };
}

/** Registers the Sesame elements for the tenant and runs one hosted page: login, profile or logout. */
export function SesameHosted(props: Props) {
  const { view, tenantId, lang } = props;
  const t = messages(lang);
  const askFirst = props.view === "logout" && props.askFirst;
  const [state, setState] = useState<State>(askFirst ? { name: "confirm" } : { name: "loading" });
  const [attempt, setAttempt] = useState(0);
  // Logout: whether the user clicked "Sign out" (needed when the page was opened from another site).
  const [confirmed, setConfirmed] = useState(false);
  const redirectTo = props.view === "profile" ? null : props.redirectTo;
  const loginUrl = props.view === "login" ? null : props.loginUrl;
  const continueSignedIn = props.view === "login" && props.continueSignedIn === true;

  // Login: a successful login or registration continues to the (server-checked) redirect target.
  useEffect(() => {
    if (view !== "login" || !redirectTo) return;
    const onSuccess = (event: Event) => {
      const detail = (event as CustomEvent<SesameAuthSuccess>).detail;
      if (!detail?.userId) return;
      setState({ name: "redirecting" });
      window.location.assign(redirectTo);
    };
    document.addEventListener("sesame-auth-success", onSuccess);
    return () => document.removeEventListener("sesame-auth-success", onSuccess);
  }, [view, redirectTo]);

  // Profile: a logout from inside the profile (or a deleted account) or an expired session leads back to
  // the hosted login, which returns here after signing in.
  useEffect(() => {
    if (view !== "profile" || !loginUrl) return;
    const toLogin = () => {
      setState({ name: "redirecting" });
      window.location.assign(loginUrl);
    };
    document.addEventListener("sesame-logout", toLogin);
    document.addEventListener("sesame-session-expired", toLogin);
    return () => {
      document.removeEventListener("sesame-logout", toLogin);
      document.removeEventListener("sesame-session-expired", toLogin);
    };
  }, [view, loginUrl]);

  useEffect(() => {
    if (view === "logout" && askFirst && !confirmed) return;
    let active = true;
    const apiUrl = tenantApiUrl(tenantId);
    const run = async () => {
      let sesame: SesameClient;
      try {
        ({ sesame } = await registerSesameElements(apiUrl, lang));
      } catch (error) {
        if (active) setState(failure(error));
        return;
      }
      if (view === "login") {
        const session = continueSignedIn
          ? await sesame.validateSession().catch(() => ({ is_valid: false }))
          : { is_valid: false };
        if (!active) return;
        if (session.is_valid && redirectTo) {
          setState({ name: "redirecting" });
          window.location.replace(redirectTo);
        } else {
          setState({ name: "ready", sesame });
        }
        return;
      }
      if (view === "profile") {
        try {
          const session = await sesame.validateSession();
          if (!active) return;
          if (session.is_valid) {
            setState({ name: "ready", sesame });
          } else {
            setState({ name: "redirecting" });
            window.location.replace(loginUrl!);
          }
        } catch (error) {
          if (active) setState(failure(error));
        }
        return;
      }
      // Logout: end the session; a failed call is fine when no session is left afterwards. Without a
      // session there is nothing to end (and no refused request in the browser's console).
      const before = await sesame.validateSession().catch(() => ({ is_valid: true }));
      try {
        if (before.is_valid) await logoutOnce(apiUrl, sesame);
      } catch {
        const session = await sesame.validateSession().catch(() => ({ is_valid: true }));
        if (session.is_valid) {
          if (active) setState({ name: "error", reason: "logout" });
          return;
        }
      }
      if (!active) return;
      if (redirectTo) {
        setState({ name: "redirecting" });
        window.location.replace(redirectTo);
      } else {
        setState({ name: "signed-out" });
      }
    };
    void run();
    return () => {
      active = false;
    };
  }, [tenantId, lang, view, redirectTo, loginUrl, continueSignedIn, askFirst, confirmed, attempt]);

  const signOut = useCallback(() => {
    setState({ name: "loading" });
    setConfirmed(true);
  }, []);

  const retry = useCallback(() => {
    if (state.name === "error" && state.reason === "bundle") {
      // A failed module import may be remembered by the page: a fresh page load fetches it again.
      window.location.reload();
      return;
    }
    setState({ name: "loading" });
    setAttempt((n) => n + 1);
  }, [state]);

  return (
    <section aria-label={t.sectionLabel} data-hosted-view={view} data-hosted-state={state.name}>
      {state.name === "loading" || state.name === "redirecting" ? (
        <p role="status" className="py-6 text-center">
          {state.name === "redirecting"
            ? t.redirecting
            : view === "logout"
              ? t.signingOut
              : view === "profile"
                ? t.checkingSession
                : t.loading}
        </p>
      ) : null}

      {state.name === "confirm" ? (
        <div className="space-y-4 py-2 text-center">
          <p>{t.signOutQuestion}</p>
          <button type="button" className={hostedButton} onClick={signOut}>
            {t.signOut}
          </button>
        </div>
      ) : null}

      {state.name === "error" ? (
        <div role="alert" className="space-y-4 py-2 text-center">
          <p className="text-[color:var(--sesame-color-error)]">
            {state.reason === "bundle"
              ? t.bundleMissing
              : state.reason === "logout"
                ? t.logoutFailed
                : t.errorText}
          </p>
          <button type="button" className={hostedButton} onClick={retry}>
            {t.retry}
          </button>
        </div>
      ) : null}

      {state.name === "ready" ? (
        <>
          {createElement(view === "profile" ? "sesame-profile" : "sesame-auth", {
            lang,
            ...(props.view === "login" && props.loginHint ? { "login-hint": props.loginHint } : {}),
            className: EMBEDDED_ELEMENT,
          })}
          {props.view === "profile" ? (
            <p className="mt-6 text-center text-sm">
              <a href={props.logoutUrl} className={hostedLink}>
                {t.signOut}
              </a>
            </p>
          ) : null}
        </>
      ) : null}

      {state.name === "signed-out" && loginUrl ? (
        <div className="space-y-4 py-2 text-center">
          <p role="status">{t.signedOut}</p>
          <p>
            <a href={loginUrl} className={hostedLink}>
              {t.signInAgain}
            </a>
          </p>
        </div>
      ) : null}
    </section>
  );
}
