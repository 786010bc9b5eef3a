import type { ActionDefinition } from "@/lib/flows/definition";
import {
  CODE_VERIFIER_INPUT,
  REDIRECT_TO_INPUT,
  START_INPUT_ERRORS,
  providerInput,
  startAtProvider,
} from "@/lib/flows/shared/thirdparty";
import { profileOf } from "../profile";
import { connectableOf } from "../thirdparty";

/**
 * Connects a provider to the signed-in user: the authorization starts with the user as `linkUserId`,
 * so the callback links the identity to this user (never by email). Offered while an enabled provider
 * is not connected yet; the allowed values are those providers.
 */
export const connectThirdpartyOauthProvider: ActionDefinition = {
  description: "Connect a third party provider via OAuth.",
  available: async (ctx) => (await connectableOf(ctx)).length > 0,
  inputs: async (ctx) => [REDIRECT_TO_INPUT, providerInput(await connectableOf(ctx)), CODE_VERIFIER_INPUT],
  inputErrors: START_INPUT_ERRORS,
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    return startAtProvider(ctx, input, user.id);
  },
};
