// POST /passkey/{tenantId}/credentials/mfa/login/finalize: the spec's name for /mfa/login/finalize
export { POST } from "../../../../mfa/login/finalize/route";

export const dynamic = "force-dynamic";
