import { deriveKey } from "@/lib/crypto";

/** The tenant's serverData MAC key: derived from the master secret, the same on every instance. */
export function serverDataKey(tenantId: string): Buffer {
  return deriveKey("uaf-server-data", tenantId);
}
