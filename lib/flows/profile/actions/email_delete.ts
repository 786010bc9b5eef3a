import { deleteEmailOfSelf } from "@/lib/accounts";
import type { ActionDefinition } from "@/lib/flows/definition";
import { EMAIL_ID_INPUT } from "../inputs";
import { profileOf, when } from "../profile";

export const emailDelete: ActionDefinition = {
  description: "Delete an email address (never the primary one).",
  // Offered even when no address may go (as Hanko does): the elements read `allowed_values` for every
  // address they list, and show a delete button only for the ids listed here.
  inputs: async (ctx) => [
    {
      ...EMAIL_ID_INPUT,
      allowedValues: (await profileOf(ctx)).emails
        .filter((email) => !email.isPrimary)
        .map((email) => ({ value: email.id, name: email.address })),
    },
  ],
  // Always offered.
  available: when(() => true),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await deleteEmailOfSelf(ctx.tenant, user, String(input.email_id), ctx.audit);
    return { stay: true };
  },
};
