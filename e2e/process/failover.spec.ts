import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, startPostgres, startStandby, type Postgres } from "../../scripts/lib/postgres";
import { SERVER, startProcess, type ServerProcess } from "./server-process";

/**
 * Issue 28, part 3: Sesame follows a Postgres failover through a multi-host DATABASE_URL. Two Postgres 15
 * clusters in synchronous streaming replication; under a load of user creations the primary is killed
 * (SIGKILL), then the standby promoted: requests meanwhile are 503 (never 500: no write reaches the
 * standby), Sesame serves again within 10 s of the promotion without a restart, and every acknowledged
 * write is on the new primary.
 */
test.describe.configure({ mode: "serial" });

let primary: Postgres | undefined;
let standby: Postgres | undefined;
let server: ServerProcess | undefined;

test.afterAll(async () => {
  await server?.stop();
  primary?.destroy();
  standby?.destroy();
});

test("kill the primary under load, promote the standby: 503s meanwhile, serving again within 10 s, no acknowledged write lost", async () => {
  test.setTimeout(180_000);
  // Commits wait for the standby (synchronous_commit on, the standby named synchronous once it runs).
  primary = await startPostgres({ synchronous_commit: "on" });
  primary.createDatabase("sesame");
  standby = await startStandby(primary, { synchronous_commit: "on" });
  // Set on the primary only (ALTER SYSTEM is not replicated): the promoted standby, alone, commits locally.
  primary.psql("postgres", "alter system set synchronous_standby_names = '*'");
  primary.psql("postgres", "select pg_reload_conf()");
  await expect
    .poll(() => primary!.psql("postgres", "select sync_state from pg_stat_replication").trim(), {
      timeout: 20_000,
    })
    .toBe("sync");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-failover-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = startProcess(SERVER, {
    PORT: String(port),
    SESAME_DATA_DIR: dataDir,
    SESAME_MASTER_SECRET: "failover-master-secret-0123456789abcdefghij",
    DATABASE_URL:
      `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/sesame` +
      "?target_session_attrs=read-write",
  });
  await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as {
    tenantId: string;
    keys: { admin: string };
  };
  const admin = { authorization: `Bearer ${demo.keys.admin}`, "content-type": "application/json" };
  const users = `${base}/t/${demo.tenantId}/admin/users`;

  const acknowledged: string[] = [];
  const answers: { status: number; at: number; ms: number; started: number }[] = [];
  const unexpected: string[] = [];
  let stop = false;
  const client = async (n: number) => {
    for (let round = 0; !stop; round++) {
      const started = Date.now();
      try {
        const res = await fetch(users, {
          method: "POST",
          headers: admin,
          body: JSON.stringify({
            emails: [{ address: `failover-${n}-${round}@example.com`, is_primary: true, is_verified: true }],
          }),
          signal: AbortSignal.timeout(15_000),
        });
        const body = (await res.json()) as { id?: string };
        answers.push({ status: res.status, at: Date.now(), ms: Date.now() - started, started });
        if (res.status === 200) acknowledged.push(body.id!);
        else if (res.status !== 503) unexpected.push(`${res.status} ${JSON.stringify(body)}`);
        else await new Promise((resolve) => setTimeout(resolve, 100));
      } catch (error) {
        unexpected.push(String(error));
      }
    }
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const load = Array.from({ length: 4 }, (_, n) => client(n));
  // Under way first (a cold instance loads the route's code at its first request).
  await expect.poll(() => acknowledged.length, { timeout: 60_000, intervals: [200] }).toBeGreaterThan(5);
  await sleep(1000);
  const beforeKill = acknowledged.length;
  const failedBeforeKill = answers.filter((answer) => answer.status !== 200).length;
  primary.kill();
  const killedAt = Date.now();
  // Some time with no primary at all (a failover tool waits before it promotes).
  await sleep(3000);
  standby.promote();
  const promotedAt = Date.now();
  let servingAt: number | undefined;
  while (Date.now() - promotedAt < 15_000) {
    servingAt = answers.find((answer) => answer.status === 200 && answer.at > promotedAt)?.at;
    if (servingAt && Date.now() - servingAt > 2000) break;
    await sleep(100);
  }
  stop = true;
  await Promise.all(load);

  const window = answers.filter((answer) => answer.at > killedAt && answer.at <= (servingAt ?? Infinity));
  // Requests sent once it serves again (one sent before may still end in its deadline's 503).
  const afterwards = answers.filter((answer) => servingAt !== undefined && answer.started > servingAt);
  const figures =
    `${beforeKill} writes before the kill (${failedBeforeKill} answered otherwise), ` +
    `${acknowledged.length} acknowledged in all; ` +
    `${window.filter((a) => a.status === 503).length} answered 503 between the kill and recovery ` +
    `(slowest ${Math.max(0, ...window.map((a) => a.ms))} ms); serving again ` +
    `${servingAt === undefined ? "never" : `${servingAt - promotedAt} ms`} after the promotion ` +
    `(${promotedAt - killedAt} ms after the kill); after that ` +
    `${afterwards.filter((a) => a.status !== 200).length} of ${afterwards.length} failed`;
  test.info().annotations.push({ type: "figures", description: figures });
  process.stdout.write(`figures: ${figures}\n`);
  expect(unexpected).toEqual([]);
  expect(servingAt, "Sesame serves again after the promotion").toBeDefined();
  expect(servingAt! - promotedAt).toBeLessThan(10_000);
  expect(afterwards.filter((answer) => answer.status !== 200)).toEqual([]);
  // Every 503 came within the request deadline (never a hang).
  for (const answer of window) expect(answer.ms).toBeLessThan(6000);

  // Every acknowledged write is on the promoted standby (synchronous replication: none lost in the kill).
  const ids = new Set(
    standby
      .psql("sesame", "select id from users")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean),
  );
  const lost = acknowledged.filter((id) => !ids.has(id));
  expect(lost).toEqual([]);
});
