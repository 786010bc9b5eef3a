import type { ActionDefinition } from "@/lib/flows/definition";
import { usernameInput } from "@/lib/flows/shared/inputs";
import { setUsername } from "@/lib/accounts";
import { profileOf, when } from "./profile";

/** `username_create` and `username_update`: taken and malformed names are errors on the input. */
export const usernameSet = (description: string, existing: boolean): ActionDefinition => ({
  description,
  inputs: (ctx) => [usernameInput(ctx, true)],
  available: when(
    ({ user }, tenant) =>
      tenant.platform.username.enabled && user.externalId === null && Boolean(user.username) === existing,
  ),
  inputErrors: {
    USERNAME_TAKEN: { input: "username", message: "The username already exists" },
    USERNAME_INVALID: { input: "username", message: "Invalid username" },
  },
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await setUsername(ctx.tenant, user, String(input.username), ctx.audit);
    return { stay: true };
  },
});
