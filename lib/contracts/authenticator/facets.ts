import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { TenantIdParam } from "../schemas";
import { authenticatorErrors } from "./schemas";

const Version = z.object({ major: z.number().int(), minor: z.number().int() });

export const TrustedFacets = z
  .object({ trustedFacets: z.array(z.object({ version: Version, ids: z.array(z.string()) })) })
  .meta({ id: "TrustedFacets", description: "FIDO AppID and Facet specification, TrustedFacetList" });

export const getTrustedFacets = defineContract({
  surface: "authenticator",
  auth: { kind: "none" },
  method: "GET",
  path: "/v1/uaf/trusted-facets/{tenantId}",
  operationId: "getTrustedFacets",
  summary: "The tenant's Trusted Facets list",
  description:
    "Set the tenant's UAF AppID to this URL (over https) and UAF clients fetch the FacetIDs they may act for " +
    "from here: the tenant's `uaf.facetIds`, else its web origins.",
  tags: ["Authenticator app"],
  loadsTenant: true,
  cors: "any",
  params: z.object({ tenantId: TenantIdParam }),
  responses: {
    "200": {
      description: "The list",
      content: { "application/fido.trusted-apps+json": { schema: TrustedFacets } },
    },
    ...authenticatorErrors(404, 500),
  },
});
