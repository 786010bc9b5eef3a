import { readUserMetadata } from "@/lib/metadata";

/**
 * The user's metadata as Hanko's profile shows it (`dto.Metadata`): public and unsafe, never private;
 * undefined when neither is set.
 */
export async function profileMetadata(
  tenantId: string,
  userId: string,
): Promise<
  { public_metadata?: Record<string, unknown>; unsafe_metadata?: Record<string, unknown> } | undefined
> {
  const { public_metadata, unsafe_metadata } = await readUserMetadata(tenantId, userId);
  if (!public_metadata && !unsafe_metadata) return undefined;
  return { ...(public_metadata ? { public_metadata } : {}), ...(unsafe_metadata ? { unsafe_metadata } : {}) };
}
