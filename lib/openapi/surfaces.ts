import * as admin from "@/lib/contracts/admin";
import * as health from "@/lib/contracts/health";
import type { Contract, Surface } from "@/lib/http/contract";

export interface SurfaceDocument {
  title: string;
  description: string;
  /** Where the surface lives, relative to the instance origin. */
  serverPath: string;
  contracts: Contract[];
}

/**
 * Every surface's OpenAPI document is generated from the contracts its routes are built from. A surface
 * appears here once it has routes.
 */
export const SURFACE_DOCUMENTS: Partial<Record<Surface, SurfaceDocument>> = {
  admin: {
    title: "Sesame admin API",
    description:
      "Server-side administration of one tenant, under `{tenant_url}/admin/`. API key with the `admin` scope.",
    serverPath: "",
    contracts: Object.values(admin),
  },
  health: {
    title: "Sesame health",
    description: "Liveness and readiness probes for orchestrators and load balancers. No authentication.",
    serverPath: "",
    contracts: Object.values(health),
  },
};
