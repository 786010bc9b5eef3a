import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { usernameInput } from "@/lib/flows/shared/inputs";
import { InvalidUsername, UsernameTaken, setUsername } from "@/lib/users/username";
import { profileOf, when } from "./profile";

/** `username_create` and `username_update`: taken and malformed names are errors on the input. */
export const usernameSet = (description: string, existing: boolean): ActionDefinition => ({
  description,
  inputs: (ctx) => [usernameInput(ctx, true)],
  available: when(
    ({ user }, tenant) =>
      tenant.platform.username.enabled && user.externalId === null && Boolean(user.username) === existing,
  ),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    try {
      await setUsername(ctx.tenant, user, String(input.username), ctx.audit);
    } catch (error) {
      if (error instanceof UsernameTaken) {
        throw new FlowError("username_already_exists", "The username already exists", { input: "username" });
      }
      if (error instanceof InvalidUsername) {
        const detail = error.details.join("; ");
        throw new FlowError("invalid_username_error", `Invalid username: ${detail}`, { input: "username" });
      }
      throw error;
    }
    return { stay: true };
  },
});
