import type { ActionDefinition } from "@/lib/flows/definition";
import { webauthnAvailable } from "@/lib/flows/shared/webauthn";
import { STASH } from "../stash";

export const securityKeyCreate: ActionDefinition = {
  description: "Create a security key (second factor).",
  available: (ctx) => {
    const { mfa } = ctx.tenant.platform;
    return mfa.enabled && mfa.securityKeys && webauthnAvailable(ctx);
  },
  async run(ctx) {
    ctx.stash[STASH.creating] = "security_key";
    return { to: "webauthn_credential_verification" };
  },
};
