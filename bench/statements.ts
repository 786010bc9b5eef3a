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
import { getTenant, provisionTenant } from "@/lib/tenants";
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
  for (const method of ["query", "exec"] as const) {
    const original = client[method]!.bind(client);
    client[method] = (...args: unknown[]) => {
      if (recording) log.push(String(args[0]).replace(/\s+/g, " ").slice(0, 1500));
      return original(...args);
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
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await login(i);
  const cpu = process.cpuUsage(cpu0);
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
