import { deleteUserCredential } from "@/lib/credentials";
import type { FlowContext } from "@/lib/flows/definition";
import { notFound, profileOf } from "./profile";

/** Removes one of the user's passkeys (`mfa` false) or security keys (`mfa` true); else `not_found`. */
export async function deleteOwnCredential(ctx: FlowContext, id: string, mfa: boolean): Promise<void> {
  const profile = await profileOf(ctx);
  const credential = (mfa ? profile.securityKeys : profile.passkeys).find((row) => row.id === id);
  if (!credential) throw notFound(mfa ? "Security key" : "Passkey");
  await deleteUserCredential(ctx.tenant.id, profile.user.id, credential.id, ctx.audit);
}
