import { createEmail, isAddressTaken, normalizeAddress } from "@/lib/emails";
import type { ActionDefinition } from "@/lib/flows/definition";
import { EMAIL_INPUT } from "@/lib/flows/shared/inputs";
import { setPasscodeTarget } from "@/lib/flows/shared/passcode";
import { emailTaken } from "../emails";
import { domain, onInput } from "../error-translators";
import { profileOf, when } from "../profile";

export const emailCreate: ActionDefinition = {
  description: "Add an email address.",
  inputs: [EMAIL_INPUT],
  available: when((profile, tenant) => profile.emails.length < tenant.platform.emails.maxPerUser),
  async run(ctx, input) {
    const { user, emails } = await profileOf(ctx);
    const address = await onInput("email", "value_invalid_error", async () =>
      normalizeAddress(String(input.email)),
    );
    // The user's own address, even an unverified claim, is taken too.
    if (emails.some((email) => email.address === address) || (await isAddressTaken(ctx.tenant, address))) {
      throw emailTaken("email");
    }
    if (ctx.tenant.platform.emails.requireVerification) {
      setPasscodeTarget(ctx, { address, userId: user.id, emailId: null, purpose: "email_verification" });
      return { to: "passcode_confirmation" };
    }
    await domain(() => createEmail(ctx.tenant, user, { address }, ctx.audit));
    return { stay: true };
  },
};
