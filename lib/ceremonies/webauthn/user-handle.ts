import { UUID_PATTERN } from "@/lib/tenants/tenant";

/** The parts of a user that decide its WebAuthn user handle. */
export interface HandleOwner {
  id: string;
  externalId: string | null;
}

/**
 * The WebAuthn user handle (`user.id` of the creation options, `userHandle` of assertions), stable for
 * the life of the user: a Passkey API user's is the UTF-8 bytes of its external id (the relying
 * party's `user_id`, as Hanko's passkey server does); a platform user's (no external id) is the 16
 * bytes of its UUID, as Hanko's platform does, so credentials moved over from Hanko keep working.
 */
export function userHandleOf(user: HandleOwner): Uint8Array<ArrayBuffer> {
  if (user.externalId !== null) return new Uint8Array(Buffer.from(user.externalId, "utf8"));
  if (!UUID_PATTERN.test(user.id)) throw new Error(`not a UUID: ${user.id}`);
  return new Uint8Array(Buffer.from(user.id.replace(/-/g, ""), "hex"));
}

/** True when the base64url `userHandle` of an assertion is exactly this user's handle. */
export function isUserHandleOf(userHandle: string, user: HandleOwner): boolean {
  return Buffer.from(userHandle, "base64url").equals(userHandleOf(user));
}
