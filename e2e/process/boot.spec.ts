import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { freePort, startPostgres, type Postgres } from "../../scripts/lib/postgres";
import { NPM_START, SERVER, startProcess, type ServerProcess } from "./server-process";

test.describe.configure({ mode: "serial" });

const running: ServerProcess[] = [];
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

function start(command: string[], env: Record<string, string>): ServerProcess {
  const server = startProcess(command, env);
  running.push(server);
  return server;
}

const keyIn = (output: string, scope: string) =>
  output.match(new RegExp(`${scope} key\\s+(sesame_${scope}_[\\w-]{43})`))?.[1];

test("npm start seeds the demo tenant once, prints its keys, keeps them across restarts and locks its folder", async ({
  request,
}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-boot-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;

  const first = start(NPM_START, { PORT: String(port), SESAME_DATA_DIR: dataDir, DATABASE_URL: "" });
  const printed = await first.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  expect(printed).toContain(`Sesame is running at ${base}`);
  expect(printed).toContain('Demo tenant "Demo" (created now)');
  expect(printed).toContain(`RP ID / origins    localhost / ${base}`);
  const tenantId = printed.match(/id\s+([0-9a-f-]{36})/)?.[1] as string;
  const adminKey = keyIn(printed, "admin") as string;
  expect(keyIn(printed, "passkey")).toBeTruthy();

  expect((await request.get(`${base}/livez`)).status()).toBe(200);
  const status = await request.get(`${base}/t/${tenantId}/admin/`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  expect(status.status()).toBe(200);
  expect(await status.text()).toBe("API is running");
  expect(fs.statSync(path.join(dataDir, "master.key")).mode & 0o777).toBe(0o600);
  expect(fs.statSync(path.join(dataDir, "demo-keys.json")).mode & 0o777).toBe(0o600);

  // A second server on the same folder refuses to start instead of sharing it.
  const second = start(SERVER, {
    PORT: String(await freePort()),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
  });
  expect(await second.exited).not.toBe(0);
  expect(second.output()).toContain("in use by another Sesame process");
  expect((await request.get(`${base}/livez`)).status()).toBe(200);

  await first.stop();
  const again = start(NPM_START, { PORT: String(port), SESAME_DATA_DIR: dataDir, DATABASE_URL: "" });
  const reprinted = await again.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  expect(reprinted).not.toContain("created now");
  expect(reprinted).toContain(tenantId);
  expect(reprinted).toContain("The build is up to date.");
  const restarted = await request.get(`${base}/t/${tenantId}/admin/`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  expect(restarted.status()).toBe(200);
  await again.stop();

  // Not seeded twice: the folder holds exactly the one demo tenant.
  const list = spawnSync("node_modules/.bin/tsx", ["cli/sesame.ts", "tenant", "list", "--json"], {
    encoding: "utf8",
    env: { ...process.env, SESAME_DATA_DIR: dataDir, DATABASE_URL: "" },
  });
  expect(list.status, list.stderr).toBe(0);
  expect(JSON.parse(list.stdout).tenants.map((t: { id: string }) => t.id)).toEqual([tenantId]);
});

test("a wrong setting stops npm start with a message naming the variable", async () => {
  const server = start(NPM_START, { PORT: "not-a-port" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('PORT="not-a-port": must be a whole number from 1 to 65535');
});

test.describe("on Postgres", () => {
  let postgres: Postgres | undefined;
  test.afterAll(() => postgres?.destroy());

  test("the status page answers 500 within 3 s while Postgres is down and 200 once it is back", async ({
    request,
  }) => {
    postgres = await startPostgres();
    postgres.createDatabase("sesame");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-boot-pg-"));
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const server = start(SERVER, {
      PORT: String(port),
      SESAME_DATA_DIR: dataDir,
      DATABASE_URL: postgres.url("sesame"),
    });
    await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
    expect(server.output()).toContain(`Postgres at 127.0.0.1:${postgres.port}/sesame`);
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8"));
    const statusUrl = `${base}/t/${demo.tenantId}/admin/`;
    const headers = { authorization: `Bearer ${demo.keys.admin}` };
    expect((await request.get(statusUrl, { headers })).status()).toBe(200);

    postgres.stop();
    const started = Date.now();
    const down = await request.get(statusUrl, { headers, timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(down.status()).toBe(500);
    expect(await down.json()).toEqual({ code: 500, message: "Internal Server Error" });
    const notReady = await request.get(`${base}/readyz`);
    expect(notReady.status()).toBe(503);
    expect(await notReady.json()).toMatchObject({
      status: "unavailable",
      checks: { database: "unavailable" },
    });
    expect((await request.get(`${base}/livez`)).status()).toBe(200);

    postgres.start();
    await expect
      .poll(async () => (await request.get(statusUrl, { headers })).status(), { timeout: 15_000 })
      .toBe(200);
    expect((await request.get(`${base}/readyz`)).status()).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
