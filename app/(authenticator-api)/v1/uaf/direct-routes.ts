import { DIRECT_TENANT as UUID, type DirectRoute } from "@/lib/http/direct";
import * as appRequest from "./app/requests/[id]/route";
import * as link from "./requests/[id]/link/route";
import * as request from "./requests/[id]/route";
import * as requests from "./requests/route";

/**
 * The UAF out-of-band round trip's routes that scripts/server.mjs serves directly (lib/http/direct.ts,
 * issue 27): create a request, its app link, the app's fetch and answer, the status check. These route
 * files' own handlers, at these files' paths (a request id is a UUID; anything else goes to Next.js,
 * which answers it as before). None needs anything of Next.js's request context (their handlers read
 * the Request only). tests/http/direct-routes.test.ts checks that each pattern is its file's path.
 */
export const UAF_DIRECT_ROUTES: readonly DirectRoute[] = [
  { pattern: /^\/v1\/uaf\/requests$/, params: [], module: requests },
  { pattern: new RegExp(`^/v1/uaf/requests/${UUID}$`), params: ["id"], module: request },
  { pattern: new RegExp(`^/v1/uaf/requests/${UUID}/link$`), params: ["id"], module: link },
  { pattern: new RegExp(`^/v1/uaf/app/requests/${UUID}$`), params: ["id"], module: appRequest },
];
