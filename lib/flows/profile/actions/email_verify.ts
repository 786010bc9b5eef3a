import type { ActionDefinition } from "@/lib/flows/definition";
import { setPasscodeTarget } from "@/lib/flows/shared/passcode";
import { EMAIL_ID_INPUT } from "../inputs";
import { notFound, profileOf, when } from "../profile";

export const emailVerify: ActionDefinition = {
  description: "Verify an email address with a code sent to it.",
  inputs: [EMAIL_ID_INPUT],
  available: when((profile) => profile.emails.some((email) => !email.verified)),
  async run(ctx, input) {
    const { user, emails } = await profileOf(ctx);
    const email = emails.find((row) => row.id === String(input.email_id).toLowerCase());
    if (!email) throw notFound("Email");
    if (email.verified) return { stay: true };
    setPasscodeTarget(ctx, {
      address: email.address,
      userId: user.id,
      emailId: email.id,
      purpose: "email_verification",
    });
    return { to: "passcode_confirmation" };
  },
};
