import type { ActionDefinition, InputSpec } from "@/lib/flows/definition";
import { STASH } from "../stash";

const CAPABILITY_INPUTS: InputSpec[] = [
  { name: "webauthn_available", type: "boolean", required: true, hidden: true },
  { name: "webauthn_conditional_mediation_available", type: "boolean", hidden: true },
  { name: "webauthn_platform_authenticator_available", type: "boolean", hidden: true },
];

/** `preflight`: the client reports its WebAuthn capabilities, then lands on `next`. */
export function registerClientCapabilities(next: string): ActionDefinition {
  return {
    description:
      "Tell the server what the browser can do (WebAuthn, conditional UI, platform authenticator).",
    inputs: CAPABILITY_INPUTS,
    // The states it leads to at most store request options' challenge (unused if the step is lost).
    writesOnlyTheFlow: true,
    async run(ctx, input) {
      ctx.stash[STASH.webauthnAvailable] = input.webauthn_available === true;
      ctx.stash[STASH.conditionalMediation] = input.webauthn_conditional_mediation_available === true;
      ctx.stash[STASH.platformAuthenticator] = input.webauthn_platform_authenticator_available === true;
      return { to: next };
    },
  };
}
