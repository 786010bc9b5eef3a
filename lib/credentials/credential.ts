import type { WebauthnCredentialRow } from "@/lib/db/schema";

/** A stored WebAuthn credential (passkey or MFA key). */
export type Credential = WebauthnCredentialRow;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Default name of a new credential: the authenticator's model when its AAGUID is known (Hanko's rule);
 * else what is known of where it was made, such as "Passkey on Chrome, Linux, added 28 Nov" (issue 29,
 * point 7: Hanko's `cred-<id>` tells a person nothing). `device` holds the browser and system of the
 * registering request's user agent, as far as they were recognised.
 */
export function defaultCredentialName(
  authenticator: string | undefined,
  device: { browser?: string; system?: string },
  options: { isMfa?: boolean; at?: Date } = {},
): string {
  if (authenticator) return authenticator;
  const at = options.at ?? new Date();
  const kind = options.isMfa ? "Security key" : "Passkey";
  const where = [device.browser, device.system].filter(Boolean).join(", ");
  const added = `added ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
  return where ? `${kind} on ${where}, ${added}` : `${kind} ${added}`;
}
