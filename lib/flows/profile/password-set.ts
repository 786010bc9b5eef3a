import type { ActionDefinition } from "@/lib/flows/definition";
import { newPasswordInput } from "@/lib/flows/shared/inputs";
import { setPassword } from "@/lib/passwords";
import { onInput } from "./error-translators";
import { profileOf, sessionOf, when } from "./profile";

/** `password_create` and `password_update`: the same step, offered when the user has none or one. */
export const passwordSet = (description: string, existing: boolean): ActionDefinition => ({
  description,
  inputs: (ctx) => [newPasswordInput(ctx, "password")],
  available: when((profile, tenant) => tenant.platform.password.enabled && profile.password === existing),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await onInput("password", "value_invalid_error", () =>
      setPassword(ctx.tenant, user, { password: String(input.password) }, ctx.audit, {
        keepSessionId: sessionOf(ctx).session.id,
      }),
    );
    return { stay: true };
  },
});
