"use server";

import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console/guard";
import {
  beginAddPasskey,
  finishAddPasskey,
  removeOperatorPasskey,
  renameOperatorPasskey,
  revokeAllOperatorSessions,
} from "@/lib/operators";

/** The signed-in operator's own passkeys and sessions: any role, only ever their own. */

const Json = z.record(z.string(), z.unknown());
const CredentialId = z.string().min(1).max(1024);
const PAGE = "/console/account";

export async function addPasskeyOptions() {
  return consoleAction("read", undefined, ({ operator, signedInAt, context }) =>
    beginAddPasskey(operator, signedInAt, context),
  );
}

export async function addPasskey(response: unknown) {
  return consoleAction("read", undefined, async ({ operator, context }) => {
    await finishAddPasskey(operator, Json.parse(response) as unknown as RegistrationResponseJSON, context);
    revalidatePath(PAGE);
    return null;
  });
}

export async function removePasskey(credentialId: string) {
  return consoleAction("read", undefined, async ({ operator, context }) => {
    await removeOperatorPasskey(operator, CredentialId.parse(credentialId), context);
    revalidatePath(PAGE);
    return null;
  });
}

/** A passkey's label: what the account page lists; 1 to 64 characters after trimming. */
const PasskeyName = z.object({
  name: z
    .string({ error: "Enter a name for the passkey." })
    .trim()
    .min(1, { error: "Enter a name for the passkey." })
    .max(64, { error: "Keep the name to 64 characters or fewer." }),
});

export async function renamePasskey(credentialId: string, input: unknown) {
  return consoleAction("read", undefined, async ({ operator, context }) => {
    const { name } = PasskeyName.parse(input);
    await renameOperatorPasskey(operator, CredentialId.parse(credentialId), name, context);
    revalidatePath(PAGE);
    return null;
  });
}

/** Ends every console session of this operator, this one included. */
export async function signOutEverywhere() {
  return consoleAction("read", undefined, async ({ operator, context }) => ({
    sessions: await revokeAllOperatorSessions(operator, context),
  }));
}
