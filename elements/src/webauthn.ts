import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
} from "@simplewebauthn/browser";

/** What the browser can do with passkeys: the flow's `register_client_capabilities` inputs. */
export async function capabilities(): Promise<Record<string, boolean>> {
  const webauthn = browserSupportsWebAuthn();
  return {
    webauthn_available: webauthn,
    webauthn_conditional_mediation_available: webauthn && (await browserSupportsWebAuthnAutofill()),
    webauthn_platform_authenticator_available: webauthn && (await platformAuthenticatorIsAvailable()),
  };
}

/**
 * The element's error code for a ceremony the browser did not finish: InvalidStateError at creation
 * means the authenticator already holds a passkey of this account (the options' excludeCredentials),
 * which is no cancellation and wants its own explanation.
 */
export function webauthnFailureCode(error: unknown): "webauthn_credential_exists" | "webauthn_cancelled" {
  const { name, code: reason } = error as { name?: string; code?: string };
  return name === "InvalidStateError" || reason === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"
    ? "webauthn_credential_exists"
    : "webauthn_cancelled";
}
