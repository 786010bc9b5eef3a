import type { ActionDefinition } from "@/lib/flows/definition";
import { newPasswordErrors, newPasswordInput } from "@/lib/flows/shared/inputs";
import { setPasswordOfSelf } from "@/lib/accounts";
import { profileOf, sessionOf, when } from "./profile";

/** `password_create` and `password_update`: the same step, offered when the user has none or one. */
export const passwordSet = (description: string, existing: boolean): ActionDefinition => ({
  description,
  inputs: (ctx) => [newPasswordInput(ctx, "password")],
  available: when((profile, tenant) => tenant.platform.password.enabled && profile.password === existing),
  inputErrors: newPasswordErrors("password"),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await setPasswordOfSelf(ctx.tenant, user, { password: String(input.password) }, ctx.audit, {
      keepSessionId: sessionOf(ctx).session.id,
    });
    return { stay: true };
  },
});
