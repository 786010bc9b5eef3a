import { createEmail, createdEmailWire, emailWire, listEmails } from "@/lib/contracts/public/emails";
import { createEmailOfSelf, listEmailsOfSelf } from "@/lib/accounts";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/emails (deprecated): the signed-in user's addresses
export const GET = route(listEmails, async ({ tenant, session }) =>
  json((await listEmailsOfSelf(tenant, session.user)).map(emailWire)),
);

// POST /t/{tenantId}/emails (deprecated): add an address (mails a verification code)
export const POST = route(createEmail, async ({ tenant, session, body, audit }) =>
  json(createdEmailWire(await createEmailOfSelf(tenant, session.user, body, audit))),
);

export const OPTIONS = preflight(listEmails, createEmail);
