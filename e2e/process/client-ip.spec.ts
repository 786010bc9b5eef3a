import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/postgres";
import { NPM_START, startProcess, type ServerProcess } from "./server-process";

let server: ServerProcess | undefined;
test.afterEach(async () => {
  await server?.stop();
});

test("security 6: a client's own X-Forwarded-For neither resets its per-IP limit nor is stored as its IP", async ({
  request,
}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-client-ip-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  // Sign-up (POST /users) logs the new user in at once without verification: an audit row and a
  // session row per request, each with the client IP. Three sign-ups per IP a minute.
  const created = execFileSync(
    "node_modules/.bin/tsx",
    [
      "cli/sesame.ts",
      "tenant",
      "create",
      "--name",
      "client-ip",
      "--rp-id",
      "localhost",
      "--origin",
      base,
      "--emails-require-verification",
      "false",
      "--rate-limit",
      "signup=3/60",
      "--json",
    ],
    {
      env: { ...process.env, SESAME_DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" },
      encoding: "utf8",
    },
  );
  const tenantId = (JSON.parse(created) as { tenant: { id: string } }).tenant.id;

  server = startProcess(NPM_START, {
    PORT: String(port),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
    SESAME_SEED_DEMO: "false",
  });
  await server.waitFor(/Sesame is running at/);

  // Each request names another client IP in the header, or garbage, or several; the budget is one.
  const claims = ["203.0.113.7", "<script>", "198.51.100.1, 203.0.113.8", "192.0.2.99", "::ffff:203.0.113.9"];
  const answers: { status: number; remaining: string | undefined }[] = [];
  for (const [i, claim] of claims.entries()) {
    const res = await request.post(`${base}/t/${tenantId}/users`, {
      data: { email: `user-${i}@example.com` },
      headers: { "x-forwarded-for": claim },
    });
    answers.push({ status: res.status(), remaining: res.headers()["x-ratelimit-remaining"] });
  }
  expect(answers).toEqual([
    { status: 200, remaining: "2" },
    { status: 200, remaining: "1" },
    { status: 200, remaining: "0" },
    { status: 429, remaining: "0" },
    { status: 429, remaining: "0" },
  ]);
  await server.stop();

  // The rows hold the socket's address (loopback, as IPv4 or IPv6), never what the client wrote.
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    const audit = await db.query<{ ip: string | null }>(
      "select ip from audit_logs where tenant_id = $1 and type = 'user.signup.succeeded'",
      [tenantId],
    );
    const sessions = await db.query<{ ip: string | null }>("select ip from sessions where tenant_id = $1", [
      tenantId,
    ]);
    expect(audit.rows).toHaveLength(3);
    expect(sessions.rows).toHaveLength(3);
    const ips = new Set([...audit.rows, ...sessions.rows].map((row) => row.ip));
    expect(ips.size).toBe(1);
    expect(["127.0.0.1", "::1"]).toContain([...ips][0]);
  } finally {
    await db.close();
  }
});
