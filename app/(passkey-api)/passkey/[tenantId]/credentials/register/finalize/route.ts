// POST /passkey/{tenantId}/credentials/register/finalize: the spec's name for /registration/finalize
export { POST, OPTIONS } from "../../../registration/finalize/route";

export const dynamic = "force-dynamic";
