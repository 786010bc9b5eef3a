import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { MetadataObject, UserMetadataRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { lockUser, requirePlatformUser } from "@/lib/users";
import { mergePatch, type JsonValue } from "./merge-patch";
import { deleteMetadataRow, findMetadataRow, upsertMetadataRow, type MetadataColumns } from "./store";
import { jsonValue } from "@/lib/db/json";

/** The three kinds of user metadata, by their wire names. */
export const METADATA_KINDS = ["public_metadata", "private_metadata", "unsafe_metadata"] as const;
export type MetadataKind = (typeof METADATA_KINDS)[number];

/** A user's metadata: each kind present only when it is a non-empty object (Hanko omits the others). */
export type UserMetadata = Partial<Record<MetadataKind, MetadataObject>>;

/**
 * An admin patch: `null` clears every kind; otherwise each kind given is an object merged into the
 * kind (RFC 7396) or `null`, which removes the kind. An empty object changes nothing.
 */
export type MetadataPatch = Partial<Record<MetadataKind, MetadataObject | null>> | null;

/** Hanko's limit on each kind, serialised as compact JSON (in characters). */
export const MAX_METADATA_CHARS = 3000;

const COLUMN: Record<MetadataKind, keyof MetadataColumns> = {
  public_metadata: "publicMetadata",
  private_metadata: "privateMetadata",
  unsafe_metadata: "unsafeMetadata",
};

const isObject = (value: unknown): value is MetadataObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): MetadataObject | undefined =>
  isObject(value) && Object.keys(value).length > 0 ? value : undefined;

function metadataOf(row: UserMetadataRow | undefined): UserMetadata {
  const metadata: UserMetadata = {};
  for (const kind of METADATA_KINDS) {
    const value = nonEmpty(row?.[COLUMN[kind]]);
    if (value) metadata[kind] = value;
  }
  return metadata;
}

/** The user's metadata as stored (no user check: the caller has the user). Empty when there is none. */
export async function readUserMetadata(tenantId: string, userId: string): Promise<UserMetadata> {
  return metadataOf(await findMetadataRow(tenantId, userId));
}

/**
 * The public and unsafe metadata as `visibleMetadataJsonOf` (lib/metadata/fragments.ts) gives them to
 * another module's statement, each kind present only when non-empty, as `readUserMetadata` reads them.
 */
export function visibleMetadataFromJson(
  value: unknown,
): Pick<UserMetadata, "public_metadata" | "unsafe_metadata"> {
  const row = jsonValue<Record<string, unknown> | null>(value);
  const metadata: UserMetadata = {};
  for (const kind of ["public_metadata", "unsafe_metadata"] as const) {
    const found = nonEmpty(row?.[kind]);
    if (found) metadata[kind] = found;
  }
  return metadata;
}

/** Whether the metadata has no kind at all (the admin API answers 204 then). */
export const isEmptyMetadata = (metadata: UserMetadata): boolean => Object.keys(metadata).length === 0;

const userNotFound = () => new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });

/**
 * `GET /admin/users/{id}/metadata`: the platform user's metadata (empty: the route answers 204);
 * USER_NOT_FOUND for an unknown user, another tenant's or a Passkey API user.
 */
export async function getMetadata(tenantId: string, userId: string): Promise<UserMetadata> {
  await requirePlatformUser(tenantId, userId);
  return readUserMetadata(tenantId, userId);
}

const invalid = (detail: string) => new AppError("METADATA_INVALID", undefined, { details: [detail] });

function checkSize(kind: MetadataKind, value: MetadataObject): void {
  const length = [...JSON.stringify(value)].length;
  if (length > MAX_METADATA_CHARS) {
    throw invalid(`${kind} exceeds ${MAX_METADATA_CHARS} characters (${length})`);
  }
}

/**
 * Applies `change` to the user's metadata under the user lock (read, merge, write in one transaction,
 * so concurrent patches never lose each other's keys) and records `user.metadata.updated`.
 */
async function changeMetadata(
  tenant: Tenant,
  userId: string,
  context: AuditContext,
  source: "admin" | "profile",
  change: (current: UserMetadata) => UserMetadata,
): Promise<UserMetadata> {
  return transaction(async () => {
    // The admin API manages platform users only (Passkey API users have an external id).
    if (source === "admin") await requirePlatformUser(tenant.id, userId, { lock: true });
    else if (!(await lockUser(tenant.id, userId))) throw userNotFound();
    const current = await readUserMetadata(tenant.id, userId);
    const next = change(current);
    for (const kind of METADATA_KINDS) {
      const value = next[kind];
      if (value) checkSize(kind, value);
    }
    if (isEmptyMetadata(next)) await deleteMetadataRow(tenant.id, userId);
    else {
      await upsertMetadataRow(tenant.id, userId, {
        publicMetadata: next.public_metadata ?? null,
        privateMetadata: next.private_metadata ?? null,
        unsafeMetadata: next.unsafe_metadata ?? null,
      });
    }
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "user.metadata.updated",
      details: {
        userId,
        source,
        changed: METADATA_KINDS.filter(
          (kind) => JSON.stringify(current[kind] ?? null) !== JSON.stringify(next[kind] ?? null),
        ),
      },
    });
    return next;
  });
}

/** How deeply metadata may nest: far beyond any real use, far below what recursion could not bear. */
export const MAX_METADATA_DEPTH = 32;

/** The nesting depth of a JSON value (a scalar is 0), counted without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_METADATA_DEPTH) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** One kind merge-patched (RFC 7396); an empty result removes the kind. */
function patchKind(metadata: UserMetadata, kind: MetadataKind, patch: MetadataObject | null): UserMetadata {
  if (depthOf(patch) > MAX_METADATA_DEPTH)
    throw invalid(`${kind} nests deeper than ${MAX_METADATA_DEPTH} levels`);
  const next = { ...metadata };
  const merged =
    patch === null ? undefined : nonEmpty(mergePatch(metadata[kind] as JsonValue, patch as JsonValue));
  if (merged) next[kind] = merged;
  else delete next[kind];
  return next;
}

/**
 * `PATCH /admin/users/{id}/metadata`: `null` clears all three kinds; otherwise each kind given is
 * merged (RFC 7396), `null` removes it, `{}` leaves it. METADATA_INVALID when a kind would exceed
 * 3000 characters (nothing changes then). Returns the metadata after the patch.
 */
export async function patchMetadata(
  tenant: Tenant,
  userId: string,
  patch: MetadataPatch,
  context: AuditContext,
): Promise<UserMetadata> {
  return auditFailures(tenant.id, "user.metadata.update", context, () =>
    changeMetadata(tenant, userId, context, "admin", (current) => {
      if (patch === null) return {};
      let next = current;
      for (const kind of METADATA_KINDS) {
        const value = patch[kind];
        if (value === undefined || (value !== null && Object.keys(value).length === 0)) continue;
        next = patchKind(next, kind, value);
      }
      return next;
    }),
  );
}

/**
 * The profile flow's `patch_metadata`: merges `patch` (the unsafe object itself, RFC 7396) into the
 * user's unsafe metadata only; `null` clears it. Anything but an object or null, or a result over
 * 3000 characters, is METADATA_INVALID. Returns the metadata after the patch.
 */
export async function patchUnsafeMetadata(
  tenant: Tenant,
  userId: string,
  patch: unknown,
  context: AuditContext,
): Promise<UserMetadata> {
  return auditFailures(tenant.id, "user.metadata.update", context, async () => {
    if (patch !== null && !isObject(patch)) throw invalid("metadata must be a JSON object or null");
    return changeMetadata(tenant, userId, context, "profile", (current) =>
      patchKind(current, "unsafe_metadata", patch),
    );
  });
}
