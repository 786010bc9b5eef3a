import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { freePort } from "../../scripts/lib/postgres";
import { SERVER, startProcess, type ServerProcess } from "./server-process";

/**
 * Issue 28, part 5: `npm run sesame -- backup` copies the embedded database while the server runs under a
 * load of passkey registrations (through the server's backup socket), `restore` puts it into a new
 * folder, and a server on the restored folder has every registration acknowledged before the backup
 * began and signs a user in with a passkey registered before it. Restore refuses a live folder and a
 * folder that holds a database; both commands refuse Postgres.
 */
test.describe.configure({ mode: "serial" });

const TSX = path.resolve("node_modules/.bin/tsx");
let server: ServerProcess | undefined;

test.afterAll(async () => {
  await server?.stop();
});

function sesame(env: Record<string, string>, ...args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(TSX, ["cli/sesame.ts", ...args], {
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function ready(port: number) {
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, {
      timeout: 60_000,
      intervals: [200],
    })
    .toBe(200);
}

test("a backup taken under load restores into a new folder with every acknowledged write; restore refuses live and used folders", async () => {
  test.setTimeout(300_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-backup-"));
  const original = path.join(tmp, "original");
  const restored = path.join(tmp, "restored");
  const archive = path.join(tmp, "sesame.tgz");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    SESAME_BASE_URL: `http://localhost:${port}`,
    // Each client its own address, so the per-IP limits apply per client (as behind a balancer).
    SESAME_TRUSTED_PROXIES: "127.0.0.1/32",
  };
  // The master secret in the data folder (master.key), as the one-command default has it.
  delete process.env.SESAME_MASTER_SECRET;
  server = startProcess(SERVER, { ...env, SESAME_DATA_DIR: original });
  await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  await ready(port);
  const demo = JSON.parse(fs.readFileSync(path.join(original, "demo-keys.json"), "utf8")) as {
    tenantId: string;
    keys: { passkey: string };
  };
  const t = demo.tenantId;
  const origin = `http://localhost:${port}`;

  const post = async (url: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${base}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { publicKey: never; token?: string } };
  };

  const acknowledged: { userId: string; credentialId: string; at: number; authenticator: number }[] = [];
  const authenticators: WebAuthnSoftwareAuthenticator[] = [];
  const failures: string[] = [];
  let stop = false;
  const client = async (n: number) => {
    const authenticator = new WebAuthnSoftwareAuthenticator();
    authenticators[n] = authenticator;
    const headers = { "x-forwarded-for": `198.51.100.${n + 1}` };
    for (let round = 0; !stop; round++) {
      const userId = `backup-${n}-${round}`;
      try {
        const init = await post(
          `/passkey/${t}/registration/initialize`,
          { user_id: userId, username: userId },
          { ...headers, apikey: demo.keys.passkey },
        );
        if (init.status !== 200) throw new Error(`initialize ${init.status} ${JSON.stringify(init.json)}`);
        const credential = await authenticator.register(init.json.publicKey, { origin });
        const fin = await post(`/passkey/${t}/registration/finalize`, credential, headers);
        if (fin.status !== 200) throw new Error(`finalize ${fin.status} ${JSON.stringify(fin.json)}`);
        acknowledged.push({ userId, credentialId: credential.id, at: Date.now(), authenticator: n });
      } catch (error) {
        failures.push(`${userId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  const load = Array.from({ length: 4 }, (_, n) => client(n));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(3000);

  const backupStarted = Date.now();
  const backup = await sesame(
    { SESAME_DATA_DIR: original },
    "backup",
    "--out",
    archive,
    "--include-master-key",
    "--json",
  );
  const backupEnded = Date.now();
  await sleep(1000);
  stop = true;
  await Promise.all(load);
  expect(backup.code, backup.stderr).toBe(0);
  const written = JSON.parse(backup.stdout) as { from: string; bytes: number; ms: number; masterKey: string };
  expect(written).toMatchObject({ from: "server", masterKey: `${archive}.master.key` });
  expect(backup.stderr).toContain("holds the master secret");
  expect((fs.statSync(archive).mode & 0o777).toString(8)).toBe("600");
  expect((fs.statSync(`${archive}.master.key`).mode & 0o777).toString(8)).toBe("600");
  // The socket is the server's, in the data folder, for its owner only.
  expect((fs.statSync(path.join(original, "pglite.sock")).mode & 0o777).toString(8)).toBe("600");
  expect(failures).toEqual([]);
  const before = acknowledged.filter((write) => write.at < backupStarted);
  const during = acknowledged.filter((write) => write.at >= backupStarted && write.at <= backupEnded);
  expect(before.length).toBeGreaterThan(3);

  // Refusals: a live folder, Postgres; the restore itself; then a folder that holds a database.
  const [live, postgresBackup, postgresRestore, restore] = await Promise.all([
    sesame({ SESAME_DATA_DIR: original }, "restore", "--from", archive),
    sesame(
      { SESAME_DATA_DIR: original, DATABASE_URL: "postgres://nobody@127.0.0.1:1/x" },
      "backup",
      "--out",
      path.join(tmp, "pg.tgz"),
    ),
    sesame(
      { SESAME_DATA_DIR: restored, DATABASE_URL: "postgres://nobody@127.0.0.1:1/x" },
      "restore",
      "--from",
      archive,
    ),
    sesame(
      { SESAME_DATA_DIR: path.join(tmp, "unused") },
      "restore",
      "--from",
      archive,
      "--data-dir",
      restored,
      "--master-key",
      `${archive}.master.key`,
    ),
  ]);
  expect(live.code).toBe(1);
  expect(live.stderr).toMatch(/is in use by a running Sesame \(pid \d+\)/);
  for (const refused of [postgresBackup, postgresRestore]) {
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("pg_dump");
  }
  expect(fs.existsSync(path.join(tmp, "pg.tgz"))).toBe(false);
  expect(restore.code, restore.stderr).toBe(0);
  const again = await sesame({}, "restore", "--from", archive, "--data-dir", restored);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("already holds a database");
  expect(fs.readFileSync(path.join(restored, "master.key"), "utf8")).toBe(
    fs.readFileSync(path.join(original, "master.key"), "utf8"),
  );

  // The restored folder serves on the same address once the original has stopped.
  await server.stop();
  server = startProcess(SERVER, { ...env, SESAME_DATA_DIR: restored });
  await ready(port);
  let present = 0;
  for (const write of [...before, ...during]) {
    const res = await fetch(`${base}/passkey/${t}/credentials?user_id=${write.userId}`, {
      headers: { apikey: demo.keys.passkey },
    });
    expect(res.status).toBe(200);
    const found = (await res.text()).includes(write.credentialId);
    if (write.at < backupStarted) expect(found, `${write.userId}, acknowledged before the backup`).toBe(true);
    if (found) present++;
  }
  // A user registered before the backup signs in with their passkey on the restored instance.
  const user = before[0]!;
  const login = await post(`/passkey/${t}/login/initialize`, undefined, {
    "x-forwarded-for": "198.51.100.99",
  });
  expect(login.status).toBe(200);
  const assertion = await authenticators[user.authenticator]!.login(login.json.publicKey, {
    origin,
    credentialId: user.credentialId,
  });
  const signedIn = await post(`/passkey/${t}/login/finalize`, assertion, {
    "x-forwarded-for": "198.51.100.99",
  });
  expect(signedIn.status, JSON.stringify(signedIn.json)).toBe(200);
  expect(signedIn.json.token).toMatch(/^ey/);

  const figures =
    `${acknowledged.length} registrations under load, ${before.length} before the backup (all restored), ` +
    `${during.length} during it (${present - before.length} of them in the copy); backup ${written.bytes} ` +
    `bytes in ${written.ms} ms from the running server (CLI process ${backupEnded - backupStarted} ms)`;
  test.info().annotations.push({ type: "figures", description: figures });
  process.stdout.write(`figures: ${figures}\n`);
  fs.rmSync(tmp, { recursive: true, force: true });
});
