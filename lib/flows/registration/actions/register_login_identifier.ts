import { randomUUID } from "node:crypto";
import type { ActionDefinition, FlowContext, InputSpec } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { EMAIL_INPUT, usernameInput } from "@/lib/flows/shared/inputs";
import { setPasscodeTarget } from "@/lib/flows/shared/passcode";
import { isAddressTaken } from "@/lib/emails";
import { usernameTaken } from "@/lib/accounts";
import { USERNAME_PATTERN } from "@/lib/users/lookup";
import { credentialState } from "../credential-state";
import { KEY, text } from "../stash";

/** `email` always (the address verification and passcode login need it); `username` when enabled. */
function identifierInputs(ctx: FlowContext): InputSpec[] {
  const { username } = ctx.tenant.platform;
  return username.enabled ? [EMAIL_INPUT, usernameInput(ctx, username.required)] : [EMAIL_INPUT];
}

export const registerLoginIdentifier: ActionDefinition = {
  description: "Enter an identifier to register.",
  inputs: identifierInputs,
  available: (ctx) => ctx.tenant.platform.account.allowSignup,
  async run(ctx, input) {
    const email = String(input.email);
    // Lower-cased as Hanko keeps usernames (the login compares them case-insensitively anyway).
    const username = typeof input.username === "string" ? input.username.toLowerCase() : undefined;
    if (username !== undefined) {
      if (!USERNAME_PATTERN.test(username)) {
        throw new FlowError("invalid_username_error", "The username contains invalid characters", {
          input: "username",
        });
      }
      if (await usernameTaken(ctx.tenant, username)) {
        throw new FlowError("username_already_exists", "The username is already taken", {
          input: "username",
        });
      }
    }
    if (await isAddressTaken(ctx.tenant, email)) {
      throw new FlowError("email_already_exists", "The email address is already taken", { input: "email" });
    }
    const verify = ctx.tenant.platform.emails.requireVerification;
    const next = credentialState(ctx);
    // Hanko's "no credential acquired": without a credential only a proved address can log in.
    if (!next && !(verify && ctx.tenant.platform.passcodes.enabled)) {
      throw new FlowError(
        "operation_not_permitted_error",
        "No login method is available for a new account on this device",
      );
    }
    ctx.stash[KEY.userId] = text(ctx, KEY.userId) ?? randomUUID();
    ctx.stash[KEY.email] = email;
    if (username !== undefined) ctx.stash[KEY.username] = username;
    else delete ctx.stash[KEY.username];
    delete ctx.stash[KEY.verifiedEmail];
    if (verify) {
      // The address has no user yet: the code goes to it alone.
      setPasscodeTarget(ctx, { address: email, userId: null, emailId: null, purpose: "email_verification" });
      return { to: "passcode_confirmation" };
    }
    return { to: next! };
  },
};
