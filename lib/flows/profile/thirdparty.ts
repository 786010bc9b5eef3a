import type { FlowContext } from "@/lib/flows/definition";
import type { EnabledProvider } from "@/lib/thirdparty";
import { profileOf, type Profile } from "./profile";

/** The enabled providers the user has no identity at yet (Hanko offers only those to connect). */
export function connectableProviders(profile: Profile): EnabledProvider[] {
  return profile.providers.filter(
    (provider) =>
      !profile.identityRows.some((row) => row.kind === "oauth" && row.providerId === provider.slug),
  );
}

export const connectableOf = async (ctx: FlowContext) => connectableProviders(await profileOf(ctx));
