/**
 * Next.js calls register() once when a server process starts, before it serves requests: Sesame opens
 * and migrates its database here (lib/boot), so the first request does not pay for it, and installs the
 * routes scripts/server.mjs answers directly (lib/http/direct.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { bootOrExit } = await import("./lib/boot");
    await bootOrExit();
    // The Passkey API's hot ceremony routes, the flow API's, the public API's session reads, the UAF
    // out-of-band round trip's and the OpenID Provider's login endpoints, answered by scripts/server.mjs
    // without Next.js's routing.
    const { installDirectRoutes } = await import("./lib/http/direct");
    const { PASSKEY_DIRECT_ROUTES } = await import("./app/(passkey-api)/passkey/direct-routes");
    const { FLOW_DIRECT_ROUTES } = await import("./app/(flow-api)/t/[tenantId]/direct-routes");
    const { UAF_DIRECT_ROUTES } = await import("./app/(authenticator-api)/v1/uaf/direct-routes");
    const { OPENID_DIRECT_ROUTES } = await import("./app/(openid)/t/[tenantId]/direct-routes");
    installDirectRoutes([
      ...PASSKEY_DIRECT_ROUTES,
      ...FLOW_DIRECT_ROUTES,
      ...UAF_DIRECT_ROUTES,
      ...OPENID_DIRECT_ROUTES,
    ]);
  }
}
