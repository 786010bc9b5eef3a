/**
 * Dev tool: runs passkey logins in-process through the domain functions (no HTTP) on an in-memory PGlite,
 * printing the SQL statements of one login and the CPU per login.
 *   npm run bench:statements -- [count]
 */
import { configureDatabase, getDatabase } from "@/lib/db";
import {
  finalizeLogin,
  finalizeRegistration,
  initializeLogin,
  initializeRegistration,
} from "@/lib/ceremonies/webauthn";
import { getTenant } from "@/lib/tenants";
import { provisionTenant } from "@/lib/accounts";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";

const out = (line: string) => process.stdout.write(`${line}\n`);
const AUDIT = { actor: null, ip: "127.0.0.1", userAgent: "bench", requestId: "r" };
const ORIGIN = "http://localhost:3000";

async function main() {
  process.env.SESAME_MASTER_SECRET ??= "bench-master-secret-0123456789abcdefghijklmnop";
  configureDatabase({ kind: "pglite" });
  const { db } = await getDatabase();
  const client = (db as unknown as { $client: Record<string, (...a: unknown[]) => unknown> }).$client;
  const log: string[] = [];
  let recording = false;
  // Time spent in each statement (outside transactions), by its first 60 characters.
  const timing = new Map<string, { ms: number; calls: number }>();
  let timed = false;
  for (const method of ["query", "exec"] as const) {
    const original = client[method]!.bind(client) as (...a: unknown[]) => Promise<unknown>;
    client[method] = async (...args: unknown[]) => {
      const text = String(args[0]).replace(/\s+/g, " ").trim();
      if (recording) log.push(text.slice(0, 1500));
      const started = performance.now();
      try {
        return await original(...args);
      } finally {
        if (timed) {
          const entry = timing.get(text.slice(0, 60)) ?? { ms: 0, calls: 0 };
          entry.ms += performance.now() - started;
          entry.calls++;
          timing.set(text.slice(0, 60), entry);
        }
      }
    };
  }
  const originalTx = client.transaction!.bind(client);
  client.transaction = (fn: unknown) =>
    originalTx(async (tx: Record<string, (...a: unknown[]) => unknown>) => {
      if (recording) log.push("BEGIN");
      for (const method of ["query", "exec"] as const) {
        const original = tx[method]!.bind(tx);
        tx[method] = (...args: unknown[]) => {
          if (recording) log.push("  " + String(args[0]).replace(/\s+/g, " ").slice(0, 1500));
          return original(...args);
        };
      }
      const result = await (fn as (t: unknown) => Promise<unknown>)(tx);
      if (recording) log.push("COMMIT");
      return result;
    });

  const { tenant } = await provisionTenant(
    {
      name: "dev",
      rpId: "localhost",
      origins: [ORIGIN],
      platform: { rateLimits: { webauthn_login: { points: 100000, durationSeconds: 1 } } },
    } as never,
    "dev",
  );
  const authenticators: WebAuthnSoftwareAuthenticator[] = [];
  for (let i = 0; i < 8; i++) {
    const a = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const options = await initializeRegistration(
      tenant,
      "registration",
      { userId: `u${i}`, username: `u${i}` },
      AUDIT,
    );
    await finalizeRegistration(
      tenant,
      "registration",
      (await a.register(options as never, { origin: ORIGIN, fmt: "none" })) as never,
      AUDIT,
    );
    authenticators.push(a);
  }
  // Each request reads its tenant, as the route wrapper does.
  const login = async (i: number) => {
    const options = await initializeLogin(await getTenant(tenant.id), "login", {}, AUDIT);
    const assertion = await authenticators[i % authenticators.length]!.login(options as never, {
      origin: ORIGIN,
    });
    return finalizeLogin(await getTenant(tenant.id), "login", assertion as never, AUDIT);
  };
  for (let i = 0; i < 50; i++) await login(i);
  recording = true;
  await login(0);
  recording = false;
  out(log.join("\n"));
  out(
    `statements: ${log.filter((l) => l !== "BEGIN" && l !== "COMMIT").length}, transactions: ${log.filter((l) => l === "BEGIN").length}`,
  );
  const count = Number(process.argv[2] ?? 300);
  timed = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await login(i);
  const cpu = process.cpuUsage(cpu0);
  for (const [text, entry] of [...timing].sort((a, b) => b[1].ms - a[1].ms)) {
    out(
      `${(entry.ms / count).toFixed(3)} ms per login  ${(entry.ms / entry.calls).toFixed(3)} ms each  ${text}`,
    );
  }
  out(
    `${count} logins: ${((performance.now() - t0) / count).toFixed(2)} ms wall, ${((cpu.user + cpu.system) / 1000 / count).toFixed(2)} ms CPU per login (client signing included)`,
  );
}
main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
