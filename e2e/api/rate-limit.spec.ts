import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";

/** The master secret playwright.config.ts gives the instances that share Postgres. */
const SHARED_MASTER_SECRET = "e2e-shared-master-secret-0123456789abcdef";

/** Creates a tenant with the CLI on the instances' database (the CLI runs beside servers on Postgres). */
function createTenant(...settings: string[]): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-e2e-cli-"));
  const result = spawnSync(
    "node_modules/.bin/tsx",
    ["cli/sesame.ts", "tenant", "create", "--name", `rl-${randomUUID().slice(0, 8)}`, ...settings, "--json"],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        SESAME_MASTER_SECRET: SHARED_MASTER_SECRET,
        SESAME_DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout).tenant.id as string;
}

test.describe("rate limits over HTTP", () => {
  test("a limit reached on one instance holds on the other (counters in the shared Postgres)", async ({
    request,
  }, testInfo) => {
    const second = testInfo.project.metadata.secondInstanceURL as string | undefined;
    test.skip(!second, "needs two instances on one Postgres database (the postgres project)");
    const tenantId = createTenant("--rate-limit", "session_validate=5/60");
    const validate = (origin = "") =>
      request.post(`${origin}/t/${tenantId}/sessions/validate`, { data: { session_token: "not-a-jwt" } });

    // Five requests, alternating instances, use up the window's budget of this client IP.
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await validate(i % 2 === 0 ? "" : second);
      expect(res.status()).toBe(200);
      expect(await res.json()).toEqual({ is_valid: false });
      remaining.push(res.headers()["x-ratelimit-remaining"]!);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);

    for (const origin of [second!, ""]) {
      const refused = await validate(origin);
      expect(refused.status()).toBe(429);
      expect(await refused.json()).toEqual({ code: 429, message: "Too Many Requests" });
      const retryAfter = Number(refused.headers()["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers()["x-ratelimit-limit"]).toBe("5");
    }

    // Another tenant's budget is its own.
    const other = createTenant();
    const fresh = await request.post(`${second}/t/${other}/sessions/validate`, {
      data: { session_token: "not-a-jwt" },
    });
    expect(fresh.status()).toBe(200);
    expect(fresh.headers()["x-ratelimit-limit"]).toBe("600");
  });
});
