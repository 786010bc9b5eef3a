import { createEmail, createdEmailWire, emailWire, listEmails } from "@/lib/contracts/public/emails";
import { createEmail as addEmail, listEmails as emailsOf } from "@/lib/accounts";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/emails (deprecated): the signed-in user's addresses
export const GET = route(listEmails, async ({ tenant, session }) =>
  json((await emailsOf(tenant, session.user)).map(emailWire)),
);

// POST /t/{tenantId}/emails (deprecated): add an address (mails a verification code)
export const POST = route(createEmail, async ({ tenant, session, body, audit }) =>
  json(createdEmailWire(await addEmail(tenant, session.user, body, audit))),
);

export const OPTIONS = preflight(listEmails, createEmail);
