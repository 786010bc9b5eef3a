"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { CreateUserBody, MetadataPatchBody, UpdateUserBody, adminCreateEmail } from "@/lib/contracts/admin";
import { UserIdParam } from "@/lib/contracts/admin/params";
import { consoleAction, type ActionResult } from "@/lib/console/guard";
import type { AuditContext } from "@/lib/audit";
import type { Tenant } from "@/lib/tenants";
import {
  MAX_METADATA_DEPTH,
  METADATA_KINDS,
  depthOf,
  mergePatchBetween,
  patchMetadata,
} from "@/lib/metadata";
import { revokeAllSessionsOfUser, revokeSessionOfUser } from "@/lib/sessions";
import {
  createAdminUser,
  createUserEmail,
  deleteAdminUser,
  deleteUserEmail,
  setAccountLocked,
  setUserPrimaryEmail,
  updateAdminUser,
} from "@/lib/accounts";
import { deleteCredentialOfUser } from "@/lib/credentials";

/**
 * The users pages' mutations. Each runs through consoleAction("write", tenantId, …): a viewer, a
 * signed-out browser or another tenant is refused on the server. Input is parsed with the admin API's
 * schemas (lib/contracts/admin) and the domain functions record the audit entries with the operator
 * (session.context) as actor.
 */

const usersPath = (tenantId: string) => `/console/tenants/${tenantId}/users`;
const userPath = (tenantId: string, userId: string) => `${usersPath(tenantId)}/${userId}`;
const RecordId = z.uuid();

/** A refusal next to one field (what the admin API's schema cannot know: the tenant's settings). */
const fieldRefusal = (field: string, message: string, input: unknown) =>
  new z.ZodError([{ code: "custom", path: [field], message, input }]);

const USERNAMES_OFF =
  "Usernames are not enabled for this tenant. Leave the field empty, or turn usernames on under Settings → Sign-in methods.";

/** Domain refusals that belong to one field of a form: the field they are shown next to. */
function withFieldError<T>(
  result: ActionResult<T>,
  fields: Partial<Record<string, string>>,
): ActionResult<T> {
  if (result.ok || !result.code) return result;
  const field = fields[result.code];
  if (!field || result.fieldErrors?.[field]) return result;
  return { ...result, fieldErrors: { ...result.fieldErrors, [field]: result.error } };
}

const CreateUserForm = z.object({
  email: z.string().max(1000),
  additionalEmails: z.string().max(20_000),
  verified: z.boolean(),
  username: z.string().max(1000),
});

/**
 * Creates a platform user (createAdminUser) from the console's form: a primary address (verified or
 * not), more addresses one per line, a username. Errors come back keyed by the form's fields.
 */
export async function createUser(
  tenantId: string,
  input: z.input<typeof CreateUserForm>,
): Promise<ActionResult<{ id: string }>> {
  const result = await consoleAction("write", tenantId, async ({ tenant, context }) => {
    const form = CreateUserForm.parse(input);
    const primary = form.email.trim();
    const more = form.additionalEmails
      .split(/[\s,]+/)
      .map((address) => address.trim())
      .filter(Boolean);
    if (!primary && more.length === 0 && !form.username.trim()) {
      throw new z.ZodError([
        { code: "custom", path: ["email"], message: "Enter an email address or a username.", input: "" },
      ]);
    }
    if (form.username.trim() && !tenant!.platform.username.enabled) {
      throw fieldRefusal("username", USERNAMES_OFF, form.username);
    }
    const parsed = CreateUserBody.safeParse({
      emails: [
        ...(primary ? [{ address: primary, is_primary: true, is_verified: form.verified }] : []),
        ...more.map((address) => ({ address, is_primary: false, is_verified: form.verified })),
      ],
      username: form.username.trim() || undefined,
    });
    if (!parsed.success) {
      // emails.0 is the primary field when one was given, the rest are the additional ones.
      throw new z.ZodError(
        parsed.error.issues.map((issue) => {
          if (issue.path[0] !== "emails") return issue;
          const index = Number(issue.path[1]);
          const field = primary && index === 0 ? "email" : "additionalEmails";
          const line = primary ? index : index + 1;
          return {
            ...issue,
            path: [field],
            message: field === "email" ? issue.message : `line ${line}: ${issue.message}`,
          };
        }),
      );
    }
    const body = parsed.data;
    const user = await createAdminUser(
      tenant!,
      {
        emails: body.emails.map((email) => ({
          address: email.address,
          isPrimary: email.is_primary,
          isVerified: email.is_verified,
        })),
        username: body.username,
      },
      context,
    );
    revalidatePath(usersPath(tenantId));
    return { id: user.user.id };
  });
  return withFieldError(result, {
    EMAIL_TAKEN: "email",
    EMAIL_LIMIT_REACHED: "additionalEmails",
    USERNAME_TAKEN: "username",
    USERNAME_INVALID: "username",
    USERNAME_NOT_ENABLED: "username",
  });
}

/** Deletes the user and everything of theirs (deleteAdminUser). */
export async function deleteUser(tenantId: string, userId: string): Promise<ActionResult<null>> {
  return consoleAction("write", tenantId, async ({ tenant, context }) => {
    await deleteAdminUser(tenant!, UserIdParam.parse(userId), context);
    revalidatePath(usersPath(tenantId));
    return null;
  });
}

/** Ends one session of the user (revokeSessionOfUser): its JWT stops working at once. */
export async function revokeSession(
  tenantId: string,
  userId: string,
  sessionId: string,
): Promise<ActionResult<null>> {
  return consoleAction("write", tenantId, async ({ context }) => {
    const id = UserIdParam.parse(userId);
    await revokeSessionOfUser(tenantId, id, z.uuid().parse(sessionId), context);
    revalidatePath(`${usersPath(tenantId)}/${id}`);
    return null;
  });
}

/** Ends every session of the user (revokeAllSessionsOfUser); answers how many ended. */
export async function revokeAllSessions(tenantId: string, userId: string): Promise<ActionResult<number>> {
  return consoleAction("write", tenantId, async ({ context }) => {
    const id = UserIdParam.parse(userId);
    const count = await revokeAllSessionsOfUser(tenantId, id, context);
    revalidatePath(`${usersPath(tenantId)}/${id}`);
    return count;
  });
}

const MetadataEdit = z.object({
  kind: z.enum(METADATA_KINDS),
  /** The kind as the editor loaded it: only what the operator changed since is patched. */
  original: z.string().max(100_000),
  value: z.string().max(100_000),
});

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Saves one kind of the user's metadata as the editor shows it: the merge patch from what the editor
 * loaded to what it holds now goes through patchMetadata (its 3000-character limit and depth rule), so
 * a concurrent change to keys the operator did not touch is kept. `{}` removes the kind. Errors are
 * keyed by the kind (the editor's field).
 */
export async function saveMetadata(
  tenantId: string,
  userId: string,
  input: z.input<typeof MetadataEdit>,
): Promise<ActionResult<string>> {
  const kind = METADATA_KINDS.find((name) => name === input?.kind) ?? "_";
  const result = await consoleAction("write", tenantId, async ({ tenant, context }) => {
    const id = UserIdParam.parse(userId);
    const parsedEdit = MetadataEdit.safeParse(input);
    // The editor is one field, named by its kind: the value's errors belong to it.
    if (!parsedEdit.success) {
      throw new z.ZodError(
        parsedEdit.error.issues.map((issue) => ({
          ...issue,
          path: issue.path[0] === "value" ? [kind] : issue.path,
        })),
      );
    }
    const edit = parsedEdit.data;
    const fail = (message: string) =>
      new z.ZodError([{ code: "custom", path: [edit.kind], message, input: edit.value }]);
    let to: unknown;
    let from: unknown;
    try {
      to = JSON.parse(edit.value);
      from = JSON.parse(edit.original);
    } catch (error) {
      throw fail(`not valid JSON: ${(error as Error).message}`);
    }
    if (!isObject(to)) throw fail("must be a JSON object ({} removes it)");
    if (!isObject(from)) from = {};
    // Bounded before the diff walks them (a deep value would overflow the stack).
    if (depthOf(to) > MAX_METADATA_DEPTH || depthOf(from) > MAX_METADATA_DEPTH) {
      throw fail(`nested deeper than ${MAX_METADATA_DEPTH} levels`);
    }
    const kindPatch = Object.keys(to).length === 0 ? null : mergePatchBetween(from as JsonObject, to);
    const patch = MetadataPatchBody.parse({ [edit.kind]: kindPatch });
    const metadata = await patchMetadata(tenant!, id, patch, context);
    revalidatePath(`${usersPath(tenantId)}/${id}`);
    return JSON.stringify(metadata[edit.kind] ?? {}, null, 2);
  });
  return withFieldError(result, { METADATA_INVALID: kind });
}

const ProfileForm = z.object({
  username: z.string().max(1000),
  name: z.string().max(1000),
});

/**
 * Saves the username and name from the user page's profile form through the admin API's PATCH
 * (updateAdminUser, its UpdateUserBody): an empty field clears it. A username while the tenant has
 * usernames off is refused next to the field (clearing one stays possible).
 */
export async function saveProfile(
  tenantId: string,
  userId: string,
  input: z.input<typeof ProfileForm>,
): Promise<ActionResult<null>> {
  const result = await consoleAction("write", tenantId, async ({ tenant, context }) => {
    const id = UserIdParam.parse(userId);
    const form = ProfileForm.parse(input);
    const username = form.username.trim();
    const name = form.name.trim();
    if (username && !tenant!.platform.username.enabled)
      throw fieldRefusal("username", USERNAMES_OFF, username);
    const body = UpdateUserBody.parse({ username: username || null, name: name || null });
    await updateAdminUser(tenant!, id, { username: body.username, name: body.name }, context);
    revalidatePath(userPath(tenantId, id));
    return null;
  });
  return withFieldError(result, {
    USERNAME_TAKEN: "username",
    USERNAME_INVALID: "username",
    USERNAME_REQUIRED: "username",
  });
}

const AddEmailForm = z.object({
  address: z.string().max(1000),
  verified: z.boolean(),
  primary: z.boolean(),
});

/** Adds an address to the user (createUserEmail, the admin API's POST …/emails and its body schema). */
export async function addUserEmail(
  tenantId: string,
  userId: string,
  input: z.input<typeof AddEmailForm>,
): Promise<ActionResult<null>> {
  const result = await consoleAction("write", tenantId, async ({ tenant, context }) => {
    const id = UserIdParam.parse(userId);
    const form = AddEmailForm.parse(input);
    const body = adminCreateEmail.body.parse({
      address: form.address.trim(),
      is_primary: form.primary,
      is_verified: form.verified,
    });
    await createUserEmail(
      tenant!,
      id,
      { address: body.address, isPrimary: body.is_primary, isVerified: body.is_verified },
      context,
    );
    revalidatePath(userPath(tenantId, id));
    return null;
  });
  return withFieldError(result, {
    EMAIL_TAKEN: "address",
    EMAIL_LIMIT_REACHED: "address",
    EMAIL_UNVERIFIED: "primary",
  });
}

/**
 * A change to one user from the user page: the write access and the user id checked, then `work`, then
 * the user's page (and the list, which shows the lock) is revalidated.
 */
function userChange(
  tenantId: string,
  userId: string,
  work: (session: { tenant: Tenant; context: AuditContext }, userId: string) => Promise<unknown>,
): Promise<ActionResult<null>> {
  return consoleAction("write", tenantId, async ({ tenant, context }) => {
    const id = UserIdParam.parse(userId);
    await work({ tenant: tenant!, context }, id);
    revalidatePath(userPath(tenantId, id));
    revalidatePath(usersPath(tenantId));
    return null;
  });
}

/** Removes one of the user's addresses (deleteUserEmail: never the primary one). */
export async function removeUserEmail(tenantId: string, userId: string, emailId: string) {
  return userChange(tenantId, userId, ({ tenant, context }, id) =>
    deleteUserEmail(tenant, id, RecordId.parse(emailId), context),
  );
}

/** Makes one of the user's addresses primary (setUserPrimaryEmail). */
export async function makeEmailPrimary(tenantId: string, userId: string, emailId: string) {
  return userChange(tenantId, userId, ({ tenant, context }, id) =>
    setUserPrimaryEmail(tenant, id, RecordId.parse(emailId), context),
  );
}

/** Removes one of the user's passkeys or security keys (deleteCredentialOfUser, the admin API's DELETE). */
export async function removeUserCredential(tenantId: string, userId: string, credentialId: string) {
  return userChange(tenantId, userId, ({ tenant, context }, id) =>
    deleteCredentialOfUser(tenant.id, id, z.string().min(1).max(1024).parse(credentialId), context),
  );
}

/** Locks (and signs out everywhere) or unlocks the user (setAccountLocked). */
export async function setUserLocked(tenantId: string, userId: string, locked: boolean) {
  return userChange(tenantId, userId, ({ tenant, context }, id) =>
    setAccountLocked(tenant, id, z.boolean().parse(locked), context),
  );
}
