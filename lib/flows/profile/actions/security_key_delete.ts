import type { ActionDefinition } from "@/lib/flows/definition";
import { deleteOwnCredential } from "../credentials";
import { credentialIdInput } from "../inputs";
import { when } from "../profile";

export const securityKeyDelete: ActionDefinition = {
  description: "Delete a security key.",
  inputs: [credentialIdInput("security_key_id")],
  available: when((profile) => profile.securityKeys.length > 0),
  async run(ctx, input) {
    await deleteOwnCredential(ctx, String(input.security_key_id), true);
    return { stay: true };
  },
};
