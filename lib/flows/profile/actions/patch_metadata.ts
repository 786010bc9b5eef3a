import type { ActionDefinition } from "@/lib/flows/definition";
import { patchUnsafeMetadata } from "@/lib/metadata";
import { profileOf } from "../profile";

/**
 * Hanko's `patch_metadata`: merges the input (the unsafe metadata object itself, RFC 7396) into the
 * user's unsafe metadata, never public or private; `null` clears it. An array or a result over 3000
 * characters: `invalid_metadata_error` on the input (a string or number: `value_invalid_error`).
 */
export const patchMetadata: ActionDefinition = {
  description: "Patch the user's unsafe metadata (RFC 7396 JSON Merge Patch).",
  inputs: [{ name: "patch_metadata", type: "json", required: true, nullable: true }],
  inputErrors: {
    METADATA_INVALID: { input: "patch_metadata", code: "invalid_metadata_error" },
  },
  async run(ctx, input) {
    const { user } = await profileOf(ctx);
    await patchUnsafeMetadata(ctx.tenant, user.id, input.patch_metadata ?? null, ctx.audit);
    return { stay: true };
  },
};
