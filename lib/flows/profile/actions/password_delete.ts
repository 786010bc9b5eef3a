import type { ActionDefinition } from "@/lib/flows/definition";
import { deletePassword } from "@/lib/passwords";
import { canLogInWithout, profileOf, when } from "../profile";

export const passwordDelete: ActionDefinition = {
  description: "Delete the password.",
  available: when(
    (profile, tenant) =>
      tenant.platform.password.enabled && profile.password && canLogInWithout(tenant, profile, "password"),
  ),
  async run(ctx) {
    const { user } = await profileOf(ctx);
    await deletePassword(ctx.tenant, user, ctx.audit);
    return { stay: true };
  },
};
