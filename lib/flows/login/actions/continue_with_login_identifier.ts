import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { toPasscode, toPasskey } from "../factors";
import { identifierInput, identify, loginMethodsOf, passcodeEmailOf } from "../identify";
import { routeToSso } from "../sso";
import { KEY, type Methods } from "../stash";

export const continueWithLoginIdentifier: ActionDefinition = {
  description: "Enter an identifier to login.",
  inputs: (ctx) => [identifierInput(ctx)],
  available: ({ tenant: { platform } }) =>
    platform.passkeys.enabled || platform.password.enabled || platform.passcodes.enabled,
  async run(ctx, input) {
    const typed = String(input[identifierInput(ctx).name]);
    const sso = typed.includes("@") ? await routeToSso(ctx, typed) : undefined;
    if (sso) return sso;
    const { user, address } = await identify(ctx, input);
    const email = await passcodeEmailOf(ctx, user, address);
    const methods = await loginMethodsOf(ctx, user, email);
    ctx.stash[KEY.userId] = user.id;
    ctx.stash[KEY.passcodeEmail] = email;
    ctx.stash[KEY.methods] = methods;
    const usable = (Object.keys(methods) as (keyof Methods)[]).filter((method) => methods[method]);
    if (usable.length === 0) {
      throw new FlowError("operation_not_permitted_error", "No login method is available for this account");
    }
    if (usable.length > 1) return { to: "login_method_chooser" };
    if (usable[0] === "passkey") return toPasskey(ctx, "user");
    if (usable[0] === "password") return { to: "login_password" };
    return toPasscode(ctx, undefined);
  },
};
