/**
 * `npm run bench:statements:oidc`: the `oidc-login` scenario of `npm run bench` (issue 30: a relying
 * party's authorization-code login with PKCE for a signed-in user, bench/lib/oidc-client.ts) run
 * in-process through the OpenID route handler (called as Next.js calls it: a Request and the params),
 * printing per request the SQL statements it sent, its transactions and its CPU.
 *
 *   npm run bench:statements:oidc -- [--count 100] [--print]
 *   DATABASE_URL=postgres://… npm run bench:statements:oidc      on Postgres (else in-memory PGlite)
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import * as oauthRoute from "@/app/(openid)/t/[tenantId]/oauth/[...path]/route";
import { provisionTenant } from "@/lib/accounts";
import { configureDatabase, executor, getDatabase } from "@/lib/db";
import { emails } from "@/lib/db/schema";
import { createOAuthClient } from "@/lib/openid";
import { issueSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { addUser } from "@/lib/users";
import { countStatements } from "./lib/statement-counter";

const out = (line: string) => process.stdout.write(`${line}\n`);
const AUDIT = { actor: null, ip: "127.0.0.1", userAgent: "bench", requestId: "r" };
const ORIGIN = "http://localhost:3000";
const COOKIE = "hanko";
const REDIRECT_URI = "http://localhost:9/callback";
const round2 = (value: number) => Math.round(value * 100) / 100;

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** Statements sent while `current` names a step, by step. */
const recorded = new Map<string, string[]>();
let current: string | undefined;
const note = (text: string) => {
  if (current) recorded.get(current)?.push(text.replace(/\s+/g, " ").trim());
};

interface StepStats {
  calls: number;
  cpuUs: number;
  statements: number;
  transactions: number;
}
const stats = new Map<string, StepStats>();
let measuring = false;
/** Wall time of each statement text while measuring (PGlite runs on this thread: about its CPU). */
const timings = new Map<string, { count: number; ms: number }>();
const timed = (text: string, ms: number) => {
  if (!measuring || !current) return;
  const key = text.replace(/\s+/g, " ").slice(0, 150);
  const entry = timings.get(key) ?? { count: 0, ms: 0 };
  entry.count++;
  entry.ms += ms;
  timings.set(key, entry);
};

async function step(name: string, tenant: Tenant, path: string, init: RequestInit, expected: number) {
  const handler = (oauthRoute as unknown as Record<string, Handler>)[init.method ?? "GET"]!;
  const headers = new Headers(init.headers);
  headers.set("x-forwarded-for", "127.0.0.1");
  const req = new Request(`${ORIGIN}/t/${tenant.id}/oauth/${path}`, { ...init, headers });
  recorded.set(name, []);
  current = name;
  const cpu0 = process.cpuUsage();
  const res = await handler(req, {
    params: Promise.resolve({ tenantId: tenant.id, path: path.split("?")[0]!.split("/") }),
  });
  const text = await res.text();
  const cpu = process.cpuUsage(cpu0);
  await new Promise((resolve) => setImmediate(resolve));
  current = undefined;
  if (res.status !== expected) throw new Error(`${name}: HTTP ${res.status} ${text.slice(0, 300)}`);
  const lines = recorded.get(name)!;
  if (measuring) {
    const entry = stats.get(name) ?? { calls: 0, cpuUs: 0, statements: 0, transactions: 0 };
    entry.calls++;
    entry.cpuUs += cpu.user + cpu.system;
    entry.statements += lines.filter((l) => l !== "BEGIN" && l !== "COMMIT").length;
    entry.transactions += lines.filter((l) => l === "BEGIN").length;
    stats.set(name, entry);
  }
  return { res, text };
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");

/** One login, as bench/lib/oidc-client.ts sends it. */
async function login(tenant: Tenant, clientId: string, secret: string, session: string) {
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(16));
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid email",
    state,
    nonce: b64url(randomBytes(16)),
    code_challenge: b64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
  });
  const { res } = await step(
    "1 GET /oauth/authorize",
    tenant,
    `authorize?${query}`,
    { method: "GET", headers: { cookie: `${COOKIE}=${session}` } },
    303,
  );
  const location = res.headers.get("location") ?? "";
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error(`authorize: no code in ${location}`);
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`);
  const { text } = await step(
    "2 POST /oauth/token",
    tenant,
    "token",
    {
      method: "POST",
      headers: {
        authorization: `Basic ${basic.toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      }).toString(),
    },
    200,
  );
  const tokens = JSON.parse(text) as { access_token: string };
  await step(
    "3 GET /oauth/userinfo",
    tenant,
    "userinfo",
    { method: "GET", headers: { authorization: `Bearer ${tokens.access_token}` } },
    200,
  );
}

async function main() {
  const { values } = parseArgs({
    options: { count: { type: "string", default: "100" }, print: { type: "boolean", default: false } },
  });
  process.env.SESAME_MASTER_SECRET ??= "bench-master-secret-0123456789abcdefghijklmnop";
  const url = process.env.DATABASE_URL;
  configureDatabase(url ? { kind: "postgres", url } : { kind: "pglite" });
  await getDatabase();
  await countStatements({ sent: note, answered: timed });
  // RS256, the tenant default (as `npm run sesame -- tenant create` makes the benchmark's tenant).
  const { tenant } = await provisionTenant(
    { name: "oidc-bench", rpId: "localhost", origins: [ORIGIN] } as never,
    "bench",
  );
  const { client, secret } = await createOAuthClient(
    tenant.id,
    {
      client_name: "Bench RP",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code"],
      first_party: true,
    },
    AUDIT,
  );
  const db = await executor();
  const sessions: string[] = [];
  for (let i = 0; i < 8; i++) {
    const user = await addUser(tenant.id);
    await db.insert(emails).values({
      tenantId: tenant.id,
      userId: user.id,
      address: `bench-${i}-${randomUUID()}@example.com`,
      verified: true,
      isPrimary: true,
    });
    sessions.push((await issueSession(tenant, user, ["passkey"], AUDIT)).token);
  }
  const round = (i: number) => login(tenant, client.clientId, secret!, sessions[i % sessions.length]!);
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
  out(`\n${url ? "Postgres" : "PGlite"}, ${count} logins (CPU of the whole process, in-process, no HTTP)`);
  out("| request | statements | transactions | CPU ms |");
  out("| --- | --- | --- | --- |");
  let statements = 0;
  let cpuUs = 0;
  for (const [name, entry] of stats) {
    out(
      `| ${name} | ${round2(entry.statements / entry.calls)} | ${round2(entry.transactions / entry.calls)} | ${(entry.cpuUs / entry.calls / 1000).toFixed(2)} |`,
    );
    statements += entry.statements / entry.calls;
    cpuUs += entry.cpuUs / entry.calls;
  }
  if (values.print) {
    out("\n| statement (first 150 characters) | per login | ms each |");
    out("| --- | --- | --- |");
    for (const [text, entry] of [...timings].sort((a, b) => b[1].ms - a[1].ms))
      out(`| ${text} | ${round2(entry.count / count)} | ${(entry.ms / entry.count).toFixed(2)} |`);
  }
  out(`| **login** | **${round2(statements)}** | | **${(cpuUs / 1000).toFixed(2)}** |`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
