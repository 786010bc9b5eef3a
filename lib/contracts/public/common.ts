import { z } from "zod";
import { TenantIdParam } from "../schemas";

export const tenantParams = z.object({ tenantId: TenantIdParam });

export const jsonResponse = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

/** What every public route shares: the tenant in the path, CORS with credentials for its origins. */
export const publicRoute = {
  surface: "public",
  loadsTenant: true,
  cors: "tenant-credentials",
  params: tenantParams,
} as const;
