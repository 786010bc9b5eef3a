/**
 * `npm run bench:statements:flow`: the flow API's passkey login and sign-up, and the public API's
 * `POST /sessions/validate` and `GET /me`, run in-process through their route handlers (called as
 * Next.js calls them: a Request and the params), printing per request the SQL statements it sent, its
 * transactions and its CPU. Exact statement counts are the robust measure on a shared machine.
 *
 *   npm run bench:statements:flow -- [--count 100] [--print]
 *   DATABASE_URL=postgres://… npm run bench:statements:flow      on Postgres (else in-memory PGlite)
 *
 * Scenarios (each as @teamhanko/hanko-elements sends it, with the Origin header a browser sends):
 * - login, button, conditional mediation on: start, register_client_capabilities,
 *   webauthn_generate_request_options, webauthn_verify_assertion_response (issue 27's login);
 * - login, conditional UI: start, capabilities, the assertion to login_init's options;
 * - sign-up with a passkey (address verification off): start, capabilities, register_login_identifier,
 *   webauthn_generate_creation_options, webauthn_verify_attestation_response;
 * - the public API reads every page load makes: POST /sessions/validate, GET /me.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import * as loginRoute from "@/app/(flow-api)/t/[tenantId]/login/route";
import * as registrationRoute from "@/app/(flow-api)/t/[tenantId]/registration/route";
import * as meRoute from "@/app/(public-api)/t/[tenantId]/me/route";
import * as validateRoute from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import { provisionTenant } from "@/lib/accounts";
import { finalizePublicRegistration, initializePublicRegistration } from "@/lib/ceremonies/webauthn";
import { configureDatabase, executor, getDatabase } from "@/lib/db";
import { countStatements } from "./lib/statement-counter";
import { emails } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { addUser } from "@/lib/users";
import {
  WebAuthnSoftwareAuthenticator,
  type AuthenticationOptionsLike,
  type RegistrationOptionsLike,
} from "@/tests/helpers/webauthn-software-authenticator";

const out = (line: string) => process.stdout.write(`${line}\n`);
const AUDIT = { actor: null, ip: "127.0.0.1", userAgent: "bench", requestId: "r" };
const ORIGIN = "http://localhost:3000";
const COOKIE = "hanko";
const round2 = (value: number) => Math.round(value * 100) / 100;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Statements sent while `current` names a step, by step. */
const recorded = new Map<string, string[]>();
let current: string | undefined;
const note = (text: string) => {
  if (current) recorded.get(current)?.push(text.replace(/\s+/g, " ").trim());
};
/** Wall time per statement text (first 90 characters) while measuring, with `--timing`. */
const timings = new Map<string, { calls: number; ms: number }>();
const timed = (text: string, ms: number) => {
  if (!measuring || !current) return;
  const key = `${current.replace(/^login\/\w+ |^registration /, "")}: ${text.replace(/\s+/g, " ").trim().slice(0, 90)}`;
  const entry = timings.get(key) ?? { calls: 0, ms: 0 };
  entry.calls++;
  entry.ms += ms;
  timings.set(key, entry);
};

interface StepStats {
  calls: number;
  cpuUs: number;
  statements: number;
  transactions: number;
}
const stats = new Map<string, StepStats>();
let measuring = false;

/** Runs one request as step `name`: its statements and CPU (the client's signing is outside). */
async function step(name: string, handler: Handler, path: string, init: RequestInit, tenant: Tenant) {
  const req = new Request(`http://localhost:3000${path}`, init);
  recorded.set(name, []);
  current = name;
  const cpu0 = process.cpuUsage();
  const res = await handler(req, { params: Promise.resolve({ tenantId: tenant.id }) });
  const text = await res.text();
  const cpu = process.cpuUsage(cpu0);
  // Anything the request left running (a sweep, a webhook) still counts to it.
  await new Promise((resolve) => setImmediate(resolve));
  current = undefined;
  if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${text}`);
  const lines = recorded.get(name)!;
  if (measuring) {
    const entry = stats.get(name) ?? { calls: 0, cpuUs: 0, statements: 0, transactions: 0 };
    entry.calls++;
    entry.cpuUs += cpu.user + cpu.system;
    entry.statements += lines.filter((l) => l !== "BEGIN" && l !== "COMMIT").length;
    entry.transactions += lines.filter((l) => l === "BEGIN").length;
    stats.set(name, entry);
  }
  return { res, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: {
    origin: ORIGIN,
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...headers,
  },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** The body of an action `state` offers, as the SDK builds it (inputs' defaults overlaid). */
function actionOf(state: FlowResponse, action: string, input: Record<string, unknown>) {
  const offered = state.actions[action];
  if (!offered) throw new Error(`${action} not offered in ${state.name}`);
  const defaults = Object.fromEntries(
    Object.values(offered.inputs)
      .filter((spec) => spec.value !== undefined)
      .map((spec) => [spec.name, spec.value]),
  );
  return {
    href: offered.href,
    body: { input_data: { ...defaults, ...input }, csrf_token: state.csrf_token },
  };
}

async function flowStep(
  name: string,
  tenant: Tenant,
  route: { POST: Handler },
  state: FlowResponse | undefined,
  flow: string,
  action: string | undefined,
  input: Record<string, unknown>,
  expected: string,
) {
  let path = `/t/${tenant.id}/${flow}`;
  let body: unknown;
  if (state && action) {
    const act = actionOf(state, action, input);
    path = `/t/${tenant.id}${act.href}`;
    body = act.body;
  }
  const { res, body: answer } = await step(name, route.POST, path, post(body), tenant);
  const next = answer as FlowResponse;
  if (next.name !== expected)
    throw new Error(`${name}: ${next.name}, expected ${expected}: ${JSON.stringify(next)}`);
  return { res, state: next };
}

function sessionTokenOf(res: Response): string {
  const token =
    res.headers.get("x-auth-token") ??
    new RegExp(`(?:^|, )${COOKIE}=([^;]+);`).exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (!token) throw new Error("no session token");
  return token;
}

type LoginMode = "button" | "autofill";

async function flowLogin(tenant: Tenant, authenticator: WebAuthnSoftwareAuthenticator, mode: LoginMode) {
  const p = `login/${mode}`;
  const { state: preflight } = await flowStep(
    `${p} 1 start`,
    tenant,
    loginRoute,
    undefined,
    "login",
    undefined,
    {},
    "preflight",
  );
  const capabilities = {
    webauthn_available: true,
    webauthn_conditional_mediation_available: true,
    webauthn_platform_authenticator_available: true,
  };
  const { state: init } = await flowStep(
    `${p} 2 register_client_capabilities`,
    tenant,
    loginRoute,
    preflight,
    "login",
    "register_client_capabilities",
    capabilities,
    "login_init",
  );
  const ask =
    mode === "autofill"
      ? init
      : (
          await flowStep(
            `${p} 3 webauthn_generate_request_options`,
            tenant,
            loginRoute,
            init,
            "login",
            "webauthn_generate_request_options",
            {},
            "login_passkey",
          )
        ).state;
  const publicKey = (ask.payload as { request_options: { publicKey: AuthenticationOptionsLike } })
    .request_options.publicKey;
  const assertion = await authenticator.login(publicKey, { origin: ORIGIN });
  const { res } = await flowStep(
    `${p} 4 webauthn_verify_assertion_response`,
    tenant,
    loginRoute,
    ask,
    "login",
    "webauthn_verify_assertion_response",
    { assertion_response: assertion },
    "success",
  );
  return sessionTokenOf(res);
}

async function flowSignUp(tenant: Tenant) {
  const p = "registration";
  const { state: preflight } = await flowStep(
    `${p} 1 start`,
    tenant,
    registrationRoute,
    undefined,
    "registration",
    undefined,
    {},
    "preflight",
  );
  const { state: init } = await flowStep(
    `${p} 2 register_client_capabilities`,
    tenant,
    registrationRoute,
    preflight,
    "registration",
    "register_client_capabilities",
    { webauthn_available: true, webauthn_platform_authenticator_available: true },
    "registration_init",
  );
  const { state: creating } = await flowStep(
    `${p} 3 register_login_identifier`,
    tenant,
    registrationRoute,
    init,
    "registration",
    "register_login_identifier",
    { email: `${randomUUID()}@example.com` },
    "onboarding_create_passkey",
  );
  const { state: verifying } = await flowStep(
    `${p} 4 webauthn_generate_creation_options`,
    tenant,
    registrationRoute,
    creating,
    "registration",
    "webauthn_generate_creation_options",
    {},
    "onboarding_verify_passkey_attestation",
  );
  const publicKey = (verifying.payload as { creation_options: { publicKey: RegistrationOptionsLike } })
    .creation_options.publicKey;
  const response = await new WebAuthnSoftwareAuthenticator({ counterStep: 0 }).register(publicKey, {
    origin: ORIGIN,
    fmt: "none",
  });
  await flowStep(
    `${p} 5 webauthn_verify_attestation_response`,
    tenant,
    registrationRoute,
    verifying,
    "registration",
    "webauthn_verify_attestation_response",
    { public_key: response },
    "success",
  );
}

async function publicReads(tenant: Tenant, token: string) {
  const { body } = await step(
    "public POST /sessions/validate",
    validateRoute.POST as Handler,
    `/t/${tenant.id}/sessions/validate`,
    post({ session_token: token }),
    tenant,
  );
  if ((body as { is_valid?: boolean }).is_valid !== true) throw new Error("session not valid");
  await step(
    "public GET /me",
    meRoute.GET as Handler,
    `/t/${tenant.id}/me`,
    { method: "GET", headers: { origin: ORIGIN, authorization: `Bearer ${token}` } },
    tenant,
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "100" },
      print: { type: "boolean", default: false },
      timing: { type: "boolean", default: false },
    },
  });
  process.env.SESAME_MASTER_SECRET ??= "bench-master-secret-0123456789abcdefghijklmnop";
  const url = process.env.DATABASE_URL;
  configureDatabase(url ? { kind: "postgres", url } : { kind: "pglite" });
  await getDatabase();
  await countStatements({ sent: note, answered: timed });
  const { tenant } = await provisionTenant(
    {
      name: "flow-bench",
      rpId: "localhost",
      origins: [ORIGIN],
      platform: {
        rateLimits: {
          flow: { points: 100_000, durationSeconds: 1 },
          webauthn_login: { points: 100_000, durationSeconds: 1 },
        },
      },
    } as never,
    "bench",
  );
  // Sign-up without address verification: its passcode step is the mail's, not the flow's work.
  await updateTenant(tenant.id, { platform: { emails: { requireVerification: false } } } as never);
  const authenticators: WebAuthnSoftwareAuthenticator[] = [];
  const db = await executor();
  for (let i = 0; i < 8; i++) {
    const user = await addUser(tenant.id);
    await db.insert(emails).values({
      tenantId: tenant.id,
      userId: user.id,
      address: `bench-${i}-${randomUUID()}@example.com`,
      verified: true,
      isPrimary: true,
    });
    const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const options = await initializePublicRegistration(tenant, user, AUDIT);
    await finalizePublicRegistration(
      tenant,
      user,
      await authenticator.register(options, { origin: ORIGIN, fmt: "none" }),
      AUDIT,
    );
    authenticators.push(authenticator);
  }
  const round = async (i: number) => {
    const authenticator = authenticators[i % authenticators.length]!;
    const token = await flowLogin(tenant, authenticator, "button");
    await flowLogin(tenant, authenticator, "autofill");
    await flowSignUp(tenant);
    await publicReads(tenant, token);
  };
  for (let i = 0; i < 20; i++) await round(i);
  await round(0);
  if (values.print) {
    for (const [name, lines] of recorded) {
      out(`\n## ${name}`);
      for (const line of lines) out(`  ${line.slice(0, 400)}`);
    }
  }
  const count = Number(values.count);
  measuring = true;
  for (let i = 0; i < count; i++) await round(i);
  out(`\n${url ? "Postgres" : "PGlite"}, ${count} rounds (CPU of the whole process, in-process, no HTTP)`);
  out("| request | statements | transactions | CPU ms |");
  out("| --- | --- | --- | --- |");
  const totals = new Map<string, { statements: number; cpuUs: number }>();
  for (const [name, entry] of stats) {
    out(
      `| ${name} | ${round2(entry.statements / entry.calls)} | ${round2(entry.transactions / entry.calls)} | ${(entry.cpuUs / entry.calls / 1000).toFixed(2)} |`,
    );
    const group = name.split(" ")[0]!;
    const total = totals.get(group) ?? { statements: 0, cpuUs: 0 };
    total.statements += entry.statements / entry.calls;
    total.cpuUs += entry.cpuUs / entry.calls;
    totals.set(group, total);
  }
  for (const [group, total] of totals) {
    out(`| **${group}** | **${round2(total.statements)}** | | **${(total.cpuUs / 1000).toFixed(2)}** |`);
  }
  if (values.timing) {
    out(
      "\nWall time per statement (ms per call; steps of both login modes and sign-up together), slowest first",
    );
    out("| ms | calls | step: statement |");
    out("| --- | --- | --- |");
    const rows = [...timings].sort((a, b) => b[1].ms / b[1].calls - a[1].ms / a[1].calls);
    for (const [key, entry] of rows)
      out(`| ${(entry.ms / entry.calls).toFixed(2)} | ${entry.calls} | ${key} |`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
