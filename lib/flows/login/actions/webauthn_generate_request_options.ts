import type { FlowAssertionMode } from "@/lib/ceremonies/webauthn/flow-login";
import type { ActionDefinition } from "@/lib/flows/definition";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";
import { toPasskey } from "../factors";
import { methodsOf, mfaOf } from "../stash";

/** The assertion a state asks for: discoverable at `login_init`, the user's passkeys or security keys. */
const ASSERTION_MODE: Record<string, FlowAssertionMode> = {
  login_init: "discoverable",
  login_method_chooser: "user",
  login_security_key: "security_key",
};

export const webauthnGenerateRequestOptions: ActionDefinition = {
  description: "Get webauthn request options in order to sign in with a webauthn credential.",
  available(ctx) {
    if (ctx.state === "login_init") return passkeysUsable(ctx);
    if (ctx.state === "login_method_chooser") return methodsOf(ctx).passkey;
    return mfaOf(ctx).security_key;
  },
  // login_passkey stores (or renews) a challenge, which a lost step leaves unused until it expires.
  writesOnlyTheFlow: true,
  run: async (ctx) => toPasskey(ctx, ASSERTION_MODE[ctx.state] ?? "discoverable"),
};
