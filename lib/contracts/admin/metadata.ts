import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import type { UserMetadata } from "@/lib/metadata";
import { TenantIdParam, platformErrors } from "../schemas";
import { UserIdParam } from "./params";

const MetadataObject = z.record(z.string(), z.unknown());

/** Hanko's admin `Metadata`: each kind present only when it is set (a non-empty object). */
export const Metadata = z
  .object({
    public_metadata: MetadataObject.optional().meta({ description: "Readable by the user (`GET /me`)" }),
    private_metadata: MetadataObject.optional().meta({ description: "Admin only" }),
    unsafe_metadata: MetadataObject.optional().meta({
      description: "Readable and writable by the user (profile flow `patch_metadata`)",
    }),
  })
  .meta({ id: "AdminMetadata" });

const kindPatch = (kind: string) =>
  MetadataObject.nullable()
    .optional()
    .meta({ description: `Merged into ${kind} (RFC 7396); null removes it; {} changes nothing` });

/**
 * The PATCH body: `null` clears every kind; otherwise an object whose kinds are objects or null
 * (unknown keys are dropped).
 */
export const MetadataPatchBody = z
  .object({
    public_metadata: kindPatch("public_metadata"),
    private_metadata: kindPatch("private_metadata"),
    unsafe_metadata: kindPatch("unsafe_metadata"),
  })
  .nullable()
  .meta({ id: "AdminMetadataPatch" });

export const metadataWire = (metadata: UserMetadata): z.input<typeof Metadata> => ({ ...metadata });

const params = z.object({ tenantId: TenantIdParam, userId: UserIdParam });
const responses = {
  "200": {
    description: "The user's metadata",
    content: { "application/json": { schema: Metadata } },
  },
  "204": { description: "The user has no metadata" },
};

export const getUserMetadata = defineContract({
  surface: "admin",
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/metadata",
  operationId: "getUserMetadata",
  summary: "Get a user's metadata",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params,
  responses: { ...responses, ...platformErrors(400, 401, 404, 500) },
});

export const patchUserMetadata = defineContract({
  surface: "admin",
  method: "PATCH",
  path: "/t/{tenantId}/admin/users/{userId}/metadata",
  operationId: "patchUserMetadata",
  summary: "Patch a user's metadata",
  description:
    "RFC 7396 JSON Merge Patch per kind (`public_metadata`, `private_metadata`, `unsafe_metadata`): " +
    "objects merge recursively, `null` removes a key (a kind set to `null` is removed whole), arrays and " +
    "scalars replace. A `null` body clears every kind. Each kind is at most 3000 characters as compact " +
    "JSON (400 otherwise, and nothing changes). Answers the metadata after the patch, 204 when none is left.",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params,
  body: MetadataPatchBody,
  responses: { ...responses, ...platformErrors(400, 401, 404, 413, 415, 500) },
});
