import type { ActionDefinition } from "@/lib/flows/definition";
import { deleteUsername } from "@/lib/accounts";
import { profileOf, when } from "../profile";

export const usernameDelete: ActionDefinition = {
  description: "Delete the username.",
  // Hanko's rule: the user must keep an address or a passkey to log in with.
  available: when(
    (profile, tenant) =>
      tenant.platform.username.enabled &&
      !tenant.platform.username.required &&
      profile.user.externalId === null &&
      Boolean(profile.user.username) &&
      (profile.emails.length > 0 || (tenant.platform.passkeys.enabled && profile.passkeys.length > 0)),
  ),
  async run(ctx) {
    const { user } = await profileOf(ctx);
    await deleteUsername(ctx.tenant, user, ctx.audit);
    return { stay: true };
  },
};
