import { ADMIN_CONTRACTS } from "@/lib/contracts/admin";
import * as authenticatorFacets from "@/lib/contracts/authenticator/facets";
import * as authenticator from "@/lib/contracts/authenticator/routes";
import { FLOW_CONTRACTS } from "@/lib/contracts/flow";
import * as health from "@/lib/contracts/health";
import { PUBLIC_CONTRACTS } from "@/lib/contracts/public";
import { SPEC_ALIASES } from "@/lib/contracts/passkey/aliases";
import * as passkey from "@/lib/contracts/passkey/routes";
import type { Contract, Surface } from "@/lib/contracts/contract";

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
  authenticator: {
    title: "Sesame Authenticator API",
    description:
      "FIDO UAF 1.1 out-of-band requests (REG, AUTH, DEREG) and device management, as Hanko's Authenticator API. " +
      "The relying party sends its API key (`authenticator` scope) as `Authorization: secret <key>` or `Bearer <key>`; " +
      "the key names the tenant. The authenticator app uses the `/v1/uaf/app/…` URL from the QR code, authorised by its " +
      "out-of-band token. Errors are `{code, message}`; a 404 spells the field `messsage`.",
    serverPath: "",
    contracts: [...Object.values(authenticator), authenticatorFacets.getTrustedFacets],
  },
  admin: {
    title: "Sesame admin API",
    description:
      "Server-side administration of one tenant, under `{tenant_url}/admin/`. API key with the `admin` scope.",
    serverPath: "",
    contracts: ADMIN_CONTRACTS,
  },
  passkey: {
    title: "Sesame Passkey API",
    description:
      "Tenant-scoped WebAuthn for adding passkeys to an existing system, wire-compatible with Hanko's passkey server " +
      "(`@teamhanko/passkeys-sdk` works with the base URL `<origin>/passkey/`). Server-side calls send the tenant's API key " +
      "in the `apiKey` header; browser calls (login, registration finalize) need none. Errors are `{title[], details[], status}`.",
    serverPath: "/passkey",
    contracts: [...(Object.values(passkey) as Contract[]), ...(Object.values(SPEC_ALIASES) as Contract[])],
  },
  public: {
    title: "Sesame public API",
    description:
      "Client-facing API of one tenant at `{tenant_url}` = `<origin>/t/{tenant_id}`, in Hanko's wire format: no API key, " +
      "a session cookie or `Authorization: Bearer <session JWT>`. Errors are `{code, message}`.",
    serverPath: "",
    contracts: PUBLIC_CONTRACTS,
  },
  flow: {
    title: "Sesame flow API",
    description:
      "State machines for login, registration, profile and token exchange at `{tenant_url}` = `<origin>/t/{tenant_id}`, in Hanko's " +
      "wire format, so `@teamhanko/hanko-elements` works unmodified with `api` set to the tenant URL. Start a flow with " +
      "`POST /{flow}`, then post each action to the `href` it came with, sending `{input_data, csrf_token}`. The spec's " +
      "`/flow/{flow}/initialize` and `/flow/{flow}/finalize` run the same engine. Every answer is a `FlowResponse`.",
    serverPath: "",
    contracts: FLOW_CONTRACTS,
  },
  health: {
    title: "Sesame health",
    description: "Liveness and readiness probes for orchestrators and load balancers. No authentication.",
    serverPath: "",
    contracts: Object.values(health),
  },
};
