// POST /passkey/{tenantId}/credentials/login/initialize: the spec's name for /login/initialize
export { POST, OPTIONS } from "../../../login/initialize/route";

export const dynamic = "force-dynamic";
