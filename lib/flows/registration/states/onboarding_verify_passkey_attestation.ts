import { issueSignUpCreationOptions } from "@/lib/ceremonies/webauthn/sign-up";
import type { FlowContext } from "@/lib/flows/definition";
import { KEY, text } from "../stash";

/** The options are made on the way in, so `creation_options` is this state's payload. */
export async function enterOnboardingVerifyPasskeyAttestation(ctx: FlowContext) {
  const userId = text(ctx, KEY.userId);
  const email = text(ctx, KEY.email);
  if (!userId || !email) throw new Error("registration: no identifier in the stash");
  const username = text(ctx, KEY.username);
  const options = await issueSignUpCreationOptions(
    ctx.tenant,
    { id: userId, userName: email, displayName: username ?? email },
    ctx.audit,
  );
  ctx.stash[KEY.challenge] = options.challenge;
  return { creation_options: { publicKey: options } };
}
