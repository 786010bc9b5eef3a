/**
 * `npm run bench:statements:uaf`: the UAF Authenticator API's AUTH round trip (what `npm run bench:uaf`
 * and the `uaf-login` scenario of `npm run bench` drive over HTTP) run in-process through its route
 * handlers (called as Next.js and the direct routes call them: a Request and the params), printing per
 * request the SQL statements it sent, its transactions and the process's CPU. Exact statement counts
 * are the robust measure on a shared machine.
 *
 *   npm run bench:statements:uaf -- [--count 200] [--print]
 *   DATABASE_URL=postgres://… npm run bench:statements:uaf      on Postgres (else in-memory PGlite)
 *
 * One round trip: the relying party creates the AUTH request (`POST /v1/uaf/requests`) and its app link
 * (`GET /v1/uaf/requests/{id}/link`); the phone app fetches the request with the link's token
 * (`GET /v1/uaf/app/requests/{id}?token=…`), signs it and answers (`PUT` the same); the relying party
 * reads the request (`GET /v1/uaf/requests/{id}`), which is OK by then. A REG round trip (the same
 * requests) is measured too.
 */
import { parseArgs } from "node:util";
import * as appRequestRoute from "@/app/(authenticator-api)/v1/uaf/app/requests/[id]/route";
import * as linkRoute from "@/app/(authenticator-api)/v1/uaf/requests/[id]/link/route";
import * as requestRoute from "@/app/(authenticator-api)/v1/uaf/requests/[id]/route";
import * as requestsRoute from "@/app/(authenticator-api)/v1/uaf/requests/route";
import { provisionTenant } from "@/lib/accounts";
import { SoftwareUafAuthenticator } from "@/lib/ceremonies/uaf";
import { configureDatabase, getDatabase } from "@/lib/db";
import { countStatements } from "./lib/statement-counter";

const out = (line: string) => process.stdout.write(`${line}\n`);
const ORIGIN = "http://localhost:3000";
const round2 = (value: number) => Math.round(value * 100) / 100;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Statements sent while `current` names a step, by step. */
const recorded = new Map<string, string[]>();
let current: string | undefined;
const note = (text: string) => {
  if (current) recorded.get(current)?.push(text.replace(/\s+/g, " ").trim());
};
/** With `--timing`: wall time from sending each statement to its answer, by step and statement. */
const timings = new Map<string, { calls: number; ms: number }>();
let timing = false;
const timed = (text: string, ms: number) => {
  if (!timing || !measuring || !current) return;
  const key = `${current} | ${text.replace(/\s+/g, " ").trim().slice(0, 90)}`;
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

/** Runs one request as step `name`: its statements and CPU (the phone's signing is outside). */
async function step(
  name: string,
  handler: Handler | undefined,
  path: string,
  init: RequestInit,
  params: Record<string, string>,
): Promise<Record<string, unknown>> {
  if (!handler) throw new Error(`${name}: no handler`);
  const req = new Request(`${ORIGIN}${path}`, init);
  recorded.set(name, []);
  current = name;
  const cpu0 = process.cpuUsage();
  const res = await handler(req, { params: Promise.resolve(params) });
  const text = await res.text();
  const cpu = process.cpuUsage(cpu0);
  // Anything the request left running (a sweep) still counts to it.
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
  return JSON.parse(text) as Record<string, unknown>;
}

const json = (method: string, body: unknown, headers: Record<string, string>): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** One round trip of `operation` for `userId` with `phone`, each request a step `<operation> n name`. */
async function roundTrip(
  auth: Record<string, string>,
  phone: SoftwareUafAuthenticator,
  operation: "REG" | "AUTH",
  userId: string,
): Promise<void> {
  const p = operation;
  const body = operation === "REG" ? { operation, userId, username: userId } : { operation, userId };
  const created = await step(
    `${p} 1 create`,
    requestsRoute.POST as Handler,
    "/v1/uaf/requests",
    json("POST", body, auth),
    {},
  );
  const id = created.id as string;
  const link = await step(
    `${p} 2 link`,
    linkRoute.GET as Handler,
    `/v1/uaf/requests/${id}/link`,
    { method: "GET", headers: auth },
    { id },
  );
  const appPath = new URL(link.href as string).pathname + new URL(link.href as string).search;
  const fetched = await step(
    `${p} 3 app fetch`,
    appRequestRoute.GET as Handler,
    appPath,
    { method: "GET", headers: { accept: "application/json" } },
    { id },
  );
  const uafResponse =
    operation === "REG"
      ? phone.register(fetched.request as string)
      : phone.authenticate(fetched.request as string);
  const answered = await step(
    `${p} 4 app answer`,
    appRequestRoute.PUT as Handler,
    appPath,
    json("PUT", { uafResponse }, { accept: "application/json" }),
    { id },
  );
  if (answered.status !== "OK") throw new Error(`${p}: the answer left ${JSON.stringify(answered)}`);
  const status = await step(
    `${p} 5 status`,
    requestRoute.GET as Handler,
    `/v1/uaf/requests/${id}`,
    { method: "GET", headers: auth },
    { id },
  );
  if (status.status !== "OK") throw new Error(`${p}: status ${String(status.status)}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "200" },
      print: { type: "boolean", default: false },
      timing: { type: "boolean", default: false },
    },
  });
  timing = values.timing;
  process.env.SESAME_MASTER_SECRET ??= "bench-master-secret-0123456789abcdefghijklmnop";
  process.env.SESAME_BASE_URL ??= ORIGIN;
  const url = process.env.DATABASE_URL;
  configureDatabase(url ? { kind: "postgres", url } : { kind: "pglite" });
  await getDatabase();
  await countStatements({ sent: note, answered: timed });
  const { keys } = await provisionTenant(
    {
      name: "uaf-bench",
      rpId: "localhost",
      origins: [ORIGIN],
      signingAlgorithm: "ES256",
      uaf: { allowTestAuthenticators: true },
    } as never,
    "bench",
  );
  const auth = { authorization: `secret ${keys.authenticator}` };
  const phones: { phone: SoftwareUafAuthenticator; userId: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const phone = SoftwareUafAuthenticator.create({ facetId: ORIGIN });
    const userId = `bench-uaf-user-${i}`;
    await roundTrip(auth, phone, "REG", userId);
    phones.push({ phone, userId });
  }
  let registrations = 0;
  const round = async (i: number) => {
    const { phone, userId } = phones[i % phones.length]!;
    await roundTrip(auth, phone, "AUTH", userId);
    // A new user's first phone (REG), one in four rounds.
    if (i % 4 === 0) {
      await roundTrip(
        auth,
        SoftwareUafAuthenticator.create({ facetId: ORIGIN }),
        "REG",
        `new-${registrations++}`,
      );
    }
  };
  for (let i = 0; i < 40; i++) await round(i);
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
  const totals = new Map<string, { statements: number; transactions: number; cpuUs: number }>();
  for (const [name, entry] of [...stats].sort(([a], [b]) => a.localeCompare(b))) {
    out(
      `| ${name} | ${round2(entry.statements / entry.calls)} | ${round2(entry.transactions / entry.calls)} | ${(entry.cpuUs / entry.calls / 1000).toFixed(2)} |`,
    );
    const group = name.split(" ")[0]!;
    const total = totals.get(group) ?? { statements: 0, transactions: 0, cpuUs: 0 };
    total.statements += entry.statements / entry.calls;
    total.transactions += entry.transactions / entry.calls;
    total.cpuUs += entry.cpuUs / entry.calls;
    totals.set(group, total);
  }
  for (const [group, total] of totals) {
    out(
      `| **${group} round trip** | **${round2(total.statements)}** | ${round2(total.transactions)} | **${(total.cpuUs / 1000).toFixed(2)}** |`,
    );
  }
  if (timing) {
    out("\n| request, statement | ms from sending to the answer (mean) |\n| --- | --- |");
    for (const [key, entry] of [...timings].sort(([a], [b]) => a.localeCompare(b))) {
      out(`| ${key} | ${(entry.ms / entry.calls).toFixed(2)} |`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
