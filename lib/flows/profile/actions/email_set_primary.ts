import { setPrimaryEmailOfSelf } from "@/lib/accounts";
import type { ActionDefinition } from "@/lib/flows/definition";
import { EMAIL_ID_INPUT } from "../inputs";
import { profileOf, when } from "../profile";

export const emailSetPrimary: ActionDefinition = {
  description: "Make an email address the primary one.",
  inputs: [EMAIL_ID_INPUT],
  available: when((profile) => profile.emails.length > 1),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await setPrimaryEmailOfSelf(ctx.tenant, user, String(input.email_id).toLowerCase(), ctx.audit);
    return { stay: true };
  },
};
