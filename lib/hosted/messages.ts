import type { HostedLang } from "./lang";

/** Every text of the hosted pages themselves (the elements bring their own). */
export interface HostedMessages {
  loginTitle: string;
  profileTitle: string;
  logoutTitle: string;
  loading: string;
  signingOut: string;
  signedOut: string;
  signInAgain: string;
  signOut: string;
  signOutQuestion: string;
  checkingSession: string;
  redirecting: string;
  bundleMissing: string;
  logoutFailed: string;
  retry: string;
  errorTitle: string;
  errorText: string;
  notFoundTitle: string;
  notFoundText: string;
  sectionLabel: string;
  connectedApps: string;
  connectedAppsHint: string;
  disconnect: string;
  disconnectFailed: string;
}

const en: HostedMessages = {
  loginTitle: "Sign in",
  profileTitle: "Your account",
  logoutTitle: "Sign out",
  loading: "Loading…",
  signingOut: "Signing you out…",
  signedOut: "You are signed out.",
  signInAgain: "Sign in again",
  signOut: "Sign out",
  signOutQuestion: "Do you want to sign out?",
  checkingSession: "Checking your session…",
  redirecting: "Redirecting…",
  bundleMissing: "The sign-in component could not be loaded. Please try again later.",
  logoutFailed: "We could not sign you out. Please try again.",
  retry: "Try again",
  errorTitle: "Something went wrong",
  errorText: "This page could not be shown. Please try again.",
  notFoundTitle: "Page not found",
  notFoundText: "There is no sign-in page at this address. Check the link you followed.",
  sectionLabel: "Account",
  connectedApps: "Connected apps",
  connectedAppsHint:
    "Apps you allowed to sign you in. Disconnecting one signs it out; it asks again next time.",
  disconnect: "Disconnect",
  disconnectFailed: "The app could not be disconnected. Please try again.",
};

const de: HostedMessages = {
  loginTitle: "Anmelden",
  profileTitle: "Ihr Konto",
  logoutTitle: "Abmelden",
  loading: "Wird geladen…",
  signingOut: "Sie werden abgemeldet…",
  signedOut: "Sie sind abgemeldet.",
  signInAgain: "Erneut anmelden",
  signOut: "Abmelden",
  signOutQuestion: "Möchten Sie sich abmelden?",
  checkingSession: "Ihre Sitzung wird geprüft…",
  redirecting: "Weiterleitung…",
  bundleMissing: "Die Anmeldekomponente konnte nicht geladen werden. Bitte versuchen Sie es später erneut.",
  logoutFailed: "Die Abmeldung ist fehlgeschlagen. Bitte versuchen Sie es erneut.",
  retry: "Erneut versuchen",
  errorTitle: "Etwas ist schiefgelaufen",
  errorText: "Diese Seite konnte nicht angezeigt werden. Bitte versuchen Sie es erneut.",
  notFoundTitle: "Seite nicht gefunden",
  notFoundText: "Unter dieser Adresse gibt es keine Anmeldeseite. Bitte prüfen Sie den Link.",
  sectionLabel: "Konto",
  connectedApps: "Verbundene Apps",
  connectedAppsHint:
    "Apps, denen Sie die Anmeldung erlaubt haben. Trennen meldet die App ab; beim nächsten Mal fragt sie erneut.",
  disconnect: "Trennen",
  disconnectFailed: "Die App konnte nicht getrennt werden. Bitte versuchen Sie es erneut.",
};

const MESSAGES: Record<HostedLang, HostedMessages> = { en, de };

export function messages(lang: HostedLang): HostedMessages {
  return MESSAGES[lang];
}
