import type { ActionDefinition } from "@/lib/flows/definition";
import {
  CODE_VERIFIER_INPUT,
  REDIRECT_TO_INPUT,
  START_INPUT_ERRORS,
  enabledProviders,
  providerInput,
  startAtProvider,
} from "../thirdparty";

/**
 * `thirdparty_oauth` (login_init, registration_init): sign up or in at a third-party provider. Offered
 * only when the tenant has enabled providers; continues to `thirdparty` with the provider's URL.
 */
export const thirdpartyOauth: ActionDefinition = {
  description: "Sign up/sign in with a third party provider via OAuth.",
  available: async (ctx) => (await enabledProviders(ctx)).length > 0,
  inputs: async (ctx) => [REDIRECT_TO_INPUT, providerInput(await enabledProviders(ctx)), CODE_VERIFIER_INPUT],
  inputErrors: START_INPUT_ERRORS,
  run: (ctx, input) => startAtProvider(ctx, input),
};
