import { renameUserCredential } from "@/lib/credentials";
import type { ActionDefinition } from "@/lib/flows/definition";
import { credentialIdInput } from "../inputs";
import { profileOf, when } from "../profile";

export const webauthnCredentialRename: ActionDefinition = {
  description: "Rename a passkey or security key.",
  inputs: [
    credentialIdInput("passkey_id"),
    { name: "passkey_name", type: "string", required: true, maxLength: 255 },
  ],
  available: when((profile) => profile.passkeys.length + profile.securityKeys.length > 0),
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    const [id, name] = [String(input.passkey_id), String(input.passkey_name)];
    await renameUserCredential(ctx.tenant.id, user.id, id, name, ctx.audit);
    return { stay: true };
  },
};
