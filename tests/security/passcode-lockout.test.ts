import { describe, expect, it } from "vitest";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import type { FlowResponse } from "@/lib/flows";
import type { Tenant } from "@/lib/tenants";
import { act, expectState, startFlow, type FlowCall } from "../helpers/flows";
import { CAPABILITIES } from "../helpers/login";
import {
  createPublicTenant,
  createUserWithEmail,
  publicCall,
  useDevOutbox,
  validateSessionCookie,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";

// Issue 25, point 9 (first bullet): a stranger who knows an address must not be able to keep its owner
// from logging in with a mailed code. Codes belong to the client that asked for them: a stranger's wrong
// guesses and new codes lock and replace only the stranger's own codes, and the owner's code stays usable.
// The tenants keep the default `passcode` rate limit (10 a minute).

useDevOutbox();

const STRANGER = "203.0.113.66";
const OWNER = "198.51.100.7";

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

/** The login flow up to `passcode_confirmation` (a code mailed to `address`), from `ip`; or the refusal. */
async function askForCode(tenant: Tenant, address: string, ip: string): Promise<FlowCall> {
  const preflight = expectState(await startFlow(tenant, "login", from(ip)), "preflight");
  const init = expectState(
    await act(tenant, preflight, "register_client_capabilities", CAPABILITIES, from(ip)),
    "login_init",
  );
  return act(tenant, init, "continue_with_login_identifier", { email: address }, from(ip));
}

/** The stranger's round: asks for a code and types three wrong ones (the code mailed is the owner's to read). */
async function strangerRound(tenant: Tenant, address: string) {
  const asked = await askForCode(tenant, address, STRANGER);
  if (asked.body.name !== "passcode_confirmation") return asked;
  let state: FlowResponse = asked.body;
  let last = asked;
  for (let i = 0; i < 3; i++) {
    last = await act(tenant, state, "verify_passcode", { code: "000000" }, from(STRANGER));
    state = last.body;
  }
  return last;
}

const initialize = (tenant: Tenant, userId: string, ip: string) =>
  publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
    body: { user_id: userId },
    ...from(ip),
  });
const finalize = (tenant: Tenant, id: string, code: string, ip: string) =>
  publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
    body: { id, code },
    ...from(ip),
  });

describe("security 3.9: a stranger hammering an address cannot keep its owner out", () => {
  it("security 3.9: the owner logs in through the login flow while a stranger burns codes and floods sends", async () => {
    const tenant = await createPublicTenant();
    const address = `${crypto.randomUUID()}@example.com`;
    const user = await createUserWithEmail(tenant, address);

    // The stranger uses up their 3 wrong codes: their next code is refused until theirs expires.
    await strangerRound(tenant, address);
    const lockedOut = await askForCode(tenant, address, STRANGER);
    expect(lockedOut.res.status).toBe(429);

    // The owner asks for a code from their own browser: mailed, with a clean count.
    const owner = expectState(await askForCode(tenant, address, OWNER), "passcode_confirmation");
    const code = await outboxCode(tenant.id, address);

    // The stranger keeps at it (new flows until their IP is rate limited): the owner's code is neither
    // replaced nor locked by it.
    const flood = [];
    for (let i = 0; i < 10; i++) flood.push((await askForCode(tenant, address, STRANGER)).res.status);
    expect(flood.every((status) => status === 429)).toBe(true);

    // A wrong guess of the owner's own counts against the owner's code only; then the right code signs in.
    const typo = await act(tenant, owner, "verify_passcode", { code: wrong(code) }, from(OWNER));
    expect(typo.res.status).toBe(400);
    const done = expectState(
      await act(tenant, typo.body, "verify_passcode", { code }, from(OWNER)),
      "success",
    );
    expect((done.payload as { user: { user_id: string } }).user.user_id).toBe(user.id);
  });

  it("security 3.9: POST /passcode/login/finalize lets the owner in while a stranger guesses and asks for new codes", async () => {
    const tenant = await createPublicTenant();
    const address = `${crypto.randomUUID()}@example.com`;
    const user = await createUserWithEmail(tenant, address);

    // The stranger's code: 3 wrong guesses lock it, and the stranger gets no new one for its lifetime.
    const theirs = (await (await initialize(tenant, user.id, STRANGER)).json()) as { id: string };
    const guesses = [];
    for (let i = 0; i < 3; i++) guesses.push((await finalize(tenant, theirs.id, "000000", STRANGER)).status);
    expect(guesses.at(-1)).toBe(410);
    expect((await initialize(tenant, user.id, STRANGER)).status).toBe(429);

    // The owner asks from elsewhere and gets a code.
    const asked = await initialize(tenant, user.id, OWNER);
    expect(asked.status, await asked.clone().text()).toBe(200);
    const ours = (await asked.json()) as { id: string };
    const code = await outboxCode(tenant.id, address);

    // The stranger, from another address of theirs, asks again and guesses: a new code of theirs does not
    // replace the owner's, and their wrong guesses count against their own code.
    const second = "203.0.113.67";
    const again = (await (await initialize(tenant, user.id, second)).json()) as { id: string };
    expect((await finalize(tenant, again.id, "000000", second)).status).toBe(401);
    // The stranger's flood of sends is still limited per IP (10 a minute).
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await initialize(tenant, user.id, second)).status);
    expect(statuses).toContain(429);

    const res = await finalize(tenant, ours.id, code, OWNER);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await validateSessionCookie(tenant, res)).session).toMatchObject({
      is_valid: true,
      user_id: user.id,
    });
  });
});
