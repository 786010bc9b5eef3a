// POST /passkey/{tenantId}/credentials/login/finalize: the spec's name for /login/finalize
export { POST, OPTIONS } from "../../../login/finalize/route";

export const dynamic = "force-dynamic";
