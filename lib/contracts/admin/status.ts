import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { TenantIdParam, platformErrors } from "../schemas";

export const status = defineContract({
  surface: "admin",
  method: "GET",
  path: "/t/{tenantId}/admin/",
  operationId: "getStatus",
  summary: "Status page",
  description:
    "Reports that the API is running. Answers 500 when the database does not answer `select 1` within 2 s. " +
    "Requires an API key with the `admin` scope of this tenant.",
  tags: ["Status"],
  auth: { kind: "admin-key" },
  databaseUnavailableAs500: true,
  params: z.object({ tenantId: TenantIdParam }),
  responses: {
    "200": {
      description: "The API is running",
      content: { "text/plain": { schema: z.string().meta({ example: "API is running" }) } },
    },
    ...platformErrors(400, 401, 500),
  },
});
