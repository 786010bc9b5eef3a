// lib/metadata owns the `user_metadata` table: other modules use these operations, never ./store.
export {
  MAX_METADATA_CHARS,
  MAX_METADATA_DEPTH,
  depthOf,
  METADATA_KINDS,
  getMetadata,
  isEmptyMetadata,
  patchMetadata,
  patchUnsafeMetadata,
  readUserMetadata,
  visibleMetadataFromJson,
  type MetadataKind,
  type MetadataPatch,
  type UserMetadata,
} from "./metadata";
export { mergePatch, type JsonValue } from "./merge-patch";
export { mergePatchBetween } from "./patch-between";
