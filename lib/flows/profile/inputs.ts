import type { InputSpec } from "@/lib/flows/definition";

/** One of the user's addresses, by id. */
export const EMAIL_ID_INPUT: InputSpec = { name: "email_id", type: "string", required: true, hidden: true };

/** Credential ids: base64url of at most 1023 bytes (WebAuthn §7.1 step 25). */
export const credentialIdInput = (name: string): InputSpec => ({
  name,
  type: "string",
  required: true,
  hidden: true,
  maxLength: 1364,
});
