// GET /passkey/{tenantId}/.well-known/jwks: the same JWKS without the extension (platform spelling)
export { GET, OPTIONS } from "../jwks.json/route";

export const dynamic = "force-dynamic";
