import { isAddressTaken, normalizeAddress } from "@/lib/emails";
import { createEmailOfSelf } from "@/lib/accounts";
import type { ActionDefinition } from "@/lib/flows/definition";
import { EMAIL_INPUT } from "@/lib/flows/shared/inputs";
import { setPasscodeTarget } from "@/lib/flows/shared/passcode";
import { emailTaken } from "../emails";
import { profileOf, when } from "../profile";

export const emailCreate: ActionDefinition = {
  description: "Add an email address.",
  inputs: [EMAIL_INPUT],
  available: when((profile, tenant) => profile.emails.length < tenant.platform.emails.maxPerUser),
  inputErrors: {
    VALIDATION_FAILED: { input: "email", code: "value_invalid_error" },
    EMAIL_TAKEN: { input: "email" },
  },
  async run(ctx, input) {
    const { user, emails } = await profileOf(ctx);
    const address = normalizeAddress(String(input.email));
    // The user's own address, even an unverified claim, is taken too.
    if (emails.some((email) => email.address === address) || (await isAddressTaken(ctx.tenant, address))) {
      throw emailTaken("email");
    }
    if (ctx.tenant.platform.emails.requireVerification) {
      setPasscodeTarget(ctx, { address, userId: user.id, emailId: null, purpose: "email_verification" });
      return { to: "passcode_confirmation" };
    }
    await createEmailOfSelf(ctx.tenant, user, { address }, ctx.audit);
    return { stay: true };
  },
};
