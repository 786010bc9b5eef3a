import { DIRECT_TENANT as TENANT, type DirectRoute } from "@/lib/http/direct";
import * as loginFinalize from "./[tenantId]/login/finalize/route";
import * as loginInitialize from "./[tenantId]/login/initialize/route";
import * as registrationFinalize from "./[tenantId]/registration/finalize/route";
import * as registrationInitialize from "./[tenantId]/registration/initialize/route";

/**
 * The Passkey API's ceremony routes that scripts/server.mjs serves directly (lib/http/direct.ts): these
 * route files' own handlers, at these files' paths. tests/http/direct-routes.test.ts checks that each
 * pattern is its file's path.
 */
export const PASSKEY_DIRECT_ROUTES: readonly DirectRoute[] = [
  {
    pattern: new RegExp(`^/passkey/${TENANT}/login/initialize$`),
    params: ["tenantId"],
    module: loginInitialize,
  },
  { pattern: new RegExp(`^/passkey/${TENANT}/login/finalize$`), params: ["tenantId"], module: loginFinalize },
  {
    pattern: new RegExp(`^/passkey/${TENANT}/registration/initialize$`),
    params: ["tenantId"],
    module: registrationInitialize,
  },
  {
    pattern: new RegExp(`^/passkey/${TENANT}/registration/finalize$`),
    params: ["tenantId"],
    module: registrationFinalize,
  },
];
