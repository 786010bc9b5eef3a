import { logoutDelete, logoutPost } from "@/lib/contracts/public/sessions";
import { noContent, preflight, route, withClearedSessionCookie, type RouteInput } from "@/lib/http";
import { endSession } from "@/lib/sessions";

export const dynamic = "force-dynamic";

async function logout({ tenant, session, audit }: RouteInput<typeof logoutPost | typeof logoutDelete>) {
  await endSession(tenant, session.session, audit);
  return withClearedSessionCookie(noContent(), tenant);
}

// POST|DELETE /t/{tenantId}/logout: end the session, clear the cookie
export const POST = route(logoutPost, logout);
export const DELETE = route(logoutDelete, logout);
export const OPTIONS = preflight(logoutPost, logoutDelete);
