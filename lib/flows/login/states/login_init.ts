import { issueFlowRequestOptions } from "@/lib/ceremonies/webauthn/flow-login";
import type { FlowContext } from "@/lib/flows/definition";
import { STASH } from "@/lib/flows/shared/stash";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";
import { KEY, type Assertion } from "../stash";

/** Login-specific stash is dropped; with conditional UI, discoverable request options are the payload. */
export async function enterLoginInit(ctx: FlowContext) {
  for (const key of Object.values(KEY)) delete ctx.stash[key];
  if (!passkeysUsable(ctx) || ctx.stash[STASH.conditionalMediation] !== true) return undefined;
  const options = await issueFlowRequestOptions(ctx.tenant, "discoverable", null, ctx.audit);
  ctx.stash[KEY.assertion] = { mode: "discoverable", challenge: options.challenge } satisfies Assertion;
  return { request_options: { publicKey: options } };
}
