import { sql, type SQL } from "drizzle-orm";
import { userMetadata } from "@/lib/db/schema";

/*
 * SQL for other owners' statements (never run here), so that a statement of another module can read a
 * user's metadata while the `user_metadata` table stays this module's.
 */

/**
 * The user's public and unsafe metadata (what the user may see of it) as one JSON object with those two
 * keys, or null without a row; lib/metadata `visibleMetadataFromJson` reads it back.
 */
export function visibleMetadataJsonOf(tenantId: string, userId: string): SQL<unknown> {
  return sql`(select json_build_object('public_metadata', m.public_metadata, 'unsafe_metadata', m.unsafe_metadata)
    from ${userMetadata} m where m.tenant_id = ${tenantId}::uuid and m.user_id = ${userId}::uuid)`;
}
