import { userPasskeys } from "@/lib/ceremonies/webauthn/flow-login";
import { isClaimOnly, findUserEmails } from "@/lib/emails";
import type { FlowContext, InputSpec } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { LOGIN_EMAIL_INPUT } from "@/lib/flows/shared/inputs";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";
import { hasPassword } from "@/lib/passwords";
import type { User } from "@/lib/users";
import { USERNAME_PATTERN, findUserByUsername } from "@/lib/users/lookup";
import { findUserByEmail } from "@/lib/accounts";
import type { Methods, PasscodeEmail } from "./stash";

/** `email` (type email), or `identifier` (an email or a username) when the tenant has usernames. */
export function identifierInput(ctx: FlowContext): InputSpec {
  return ctx.tenant.platform.username.enabled
    ? { name: "identifier", type: "string", required: true, maxLength: 254 }
    : LOGIN_EMAIL_INPUT;
}

/**
 * The user an identifier names: an address (anything with `@`; usernames cannot hold one) or a
 * platform user's username. Unknown → the input's `unknown_email_error` / `unknown_username_error`
 * (Hanko without account-existence protection).
 */
export async function identify(ctx: FlowContext, input: Record<string, unknown>) {
  const { name } = identifierInput(ctx);
  const value = String(input[name]);
  if (name === "email" || value.includes("@")) {
    const address = value.toLowerCase();
    const user = await findUserByEmail(ctx.tenant.id, address);
    if (!user) throw new FlowError("unknown_email_error", "The email address is unknown", { input: name });
    return { user, address };
  }
  const user = USERNAME_PATTERN.test(value) ? await findUserByUsername(ctx.tenant.id, value) : undefined;
  if (!user) throw new FlowError("unknown_username_error", "The username is unknown", { input: name });
  return { user, address: undefined };
}

/**
 * Where a login code may go: the address typed, or the primary one when a username was typed. An
 * unverified address is not used when it is only a claim (`isClaimOnly`) or its account has a
 * verified one (as for `POST /passcode/login/finalize`, only that account's session may verify it),
 * so whoever holds such an address cannot log in to the account with it.
 */
export async function passcodeEmailOf(ctx: FlowContext, user: User, typed: string | undefined) {
  if (!ctx.tenant.platform.passcodes.enabled) return null;
  const emails = await findUserEmails(ctx.tenant.id, user.id);
  const email = emails.find((row) => (typed === undefined ? row.isPrimary : row.address === typed));
  if (!email) return null;
  const unproven = !email.verified && (isClaimOnly(ctx.tenant, email) || emails.some((row) => row.verified));
  return unproven ? null : ({ address: email.address, emailId: email.id } satisfies PasscodeEmail);
}

export async function loginMethodsOf(
  ctx: FlowContext,
  user: User,
  email: PasscodeEmail | null,
): Promise<Methods> {
  return {
    passkey: passkeysUsable(ctx) && (await userPasskeys(ctx.tenant, user.id)).length > 0,
    password: ctx.tenant.platform.password.enabled && (await hasPassword(ctx.tenant.id, user.id)),
    passcode: email !== null,
  };
}
