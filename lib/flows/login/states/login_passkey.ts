import { issueFlowRequestOptions } from "@/lib/ceremonies/webauthn/flow-login";
import type { FlowContext } from "@/lib/flows/definition";
import { KEY, assertionOf, type Assertion } from "../stash";

/** New request options for the mode the previous action chose (the SDK calls `get()` with them). */
export async function enterLoginPasskey(ctx: FlowContext) {
  const assertion = assertionOf(ctx);
  if (!assertion) throw new Error("login_passkey without an assertion mode");
  const userId = assertion.mode === "discoverable" ? null : (ctx.stash[KEY.userId] as string);
  const options = await issueFlowRequestOptions(
    ctx.tenant,
    assertion.mode,
    userId,
    ctx.audit,
    assertion.reusable,
  );
  ctx.stash[KEY.assertion] = { mode: assertion.mode, challenge: options.challenge } satisfies Assertion;
  return { request_options: { publicKey: options } };
}
