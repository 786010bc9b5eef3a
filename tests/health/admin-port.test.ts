import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, type ServerProcess } from "@/e2e/process/server-process";
import { freePort } from "@/scripts/lib/postgres";
import { sample } from "./metrics-scrape";

/**
 * Sesame's server (scripts/server.mjs) with SESAME_ADMIN_PORT: the split happens in the server, before
 * Next.js, by the socket a request came in on. Needs a build (`.next`, as npm test makes before vitest);
 * without one the process tests are skipped (the path rules are tested in admin-port-paths.test.ts).
 */
const built = fs.existsSync(path.join(".next", "BUILD_ID"));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with the target exactly as written (fetch would normalise it). */
function raw(port: number, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: target, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  DATABASE_URL: "",
  SESAME_SEED_DEMO: "false",
  ...extra,
});

describe("SESAME_ADMIN_PORT: validated like PORT", () => {
  it.each([
    ["abc", "3000"],
    ["0", "3000"],
    ["70000", "3000"],
    ["4100", "4100"],
  ])("SESAME_ADMIN_PORT=%s with PORT=%s: exits 1 naming the variable", (adminPort, port) => {
    const result = spawnSync(process.execPath, ["scripts/server.mjs"], {
      env: env({ PORT: port, SESAME_ADMIN_PORT: adminPort }),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `SESAME_ADMIN_PORT="${adminPort}": must be a whole number from 1 to 65535, other than PORT`,
    );
  });
});

describe.skipIf(!built)("SESAME_ADMIN_PORT: one process, two ports", () => {
  let server: ServerProcess;
  let publicPort: number;
  let adminPort: number;
  const tenant = randomUUID();

  beforeAll(async () => {
    publicPort = await freePort();
    adminPort = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-admin-port-"));
    server = startProcess(["node", "scripts/server.mjs"], {
      NODE_ENV: "production",
      DATABASE_URL: "",
      SESAME_SEED_DEMO: "false",
      PORT: String(publicPort),
      SESAME_ADMIN_PORT: String(adminPort),
      SESAME_DATA_DIR: dataDir,
    });
    await server.waitFor(new RegExp(`Admin port ${adminPort}`));
    // Requests are held until Next.js is ready: the first answer means it is.
    expect((await raw(publicPort, "/livez")).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("answers the admin side on the admin port, through Next.js", async () => {
    const metrics = await raw(adminPort, "/metrics");
    expect(metrics.status, metrics.body).toBe(200);
    // One registry for the process: the /livez bundle's requests show in the /metrics bundle's scrape.
    expect(metrics.body).toMatch(
      /^sesame_http_requests_total\{surface="health",method="GET",route="\/livez",status="200"\} [1-9]/m,
    );
    // The admin API's own answer (X-Request-Id is the route wrapper's): no admin key.
    const admin = await raw(adminPort, `/t/${tenant}/admin/`);
    expect(admin.status).toBe(401);
    expect(JSON.parse(admin.body)).toEqual({ code: 401, message: "Unauthorized" });
    expect(admin.headers["x-request-id"]).toBeDefined();
    expect((await raw(adminPort, "/livez")).status).toBe(200);
    expect((await raw(adminPort, "/readyz")).status).toBe(200);
  });

  it.each([
    "/metrics",
    "/console",
    `/t/${tenant}/admin/`,
    `/t/${tenant}/admin/users`,
    `/t/${tenant}/%61dmin/users`,
    "//metrics",
    `/t/${tenant}/x/../admin/`,
    // Next.js routes its data URLs to the path inside them; the build id is public (in every page).
    "/_next/data/{build}/metrics.json",
    `/_next/data/{build}/t/${tenant}/admin/users.json`,
  ])("answers %s with 404 on the public port, before Next.js", async (template) => {
    const target = template.replace(
      "{build}",
      built ? fs.readFileSync(path.join(".next", "BUILD_ID"), "utf8").trim() : "x",
    );
    const res = await raw(publicPort, target);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ code: 404, message: "Not Found" });
    expect(res.headers["x-request-id"]).toBeUndefined();
  });

  it("ignores headers naming the admin port or another host", async () => {
    const res = await raw(publicPort, "/metrics", {
      host: `localhost:${adminPort}`,
      "x-forwarded-port": String(adminPort),
      "x-forwarded-host": `localhost:${adminPort}`,
    });
    expect(res.status).toBe(404);
    expect(res.headers["x-request-id"]).toBeUndefined();
  });

  it("security 3.4: Next.js's image optimizer fetches no admin path for the public port", async () => {
    const scrape = { surface: "health", method: "GET", route: "/metrics", status: "200" };
    const status = { surface: "admin", method: "GET", route: "/t/{tenantId}/admin/", status: "401" };
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, "sesame_http_requests_total", labels) ?? 0;
    const before = (await raw(adminPort, "/metrics")).body;
    for (const url of ["/metrics", "/console", "/console/sign-in", `/t/${tenant}/admin/`, "/favicon.svg"]) {
      for (const width of ["64", "3840"]) {
        const target = `/_next/image?url=${encodeURIComponent(url)}&w=${width}&q=75`;
        const res = await raw(publicPort, target);
        expect(res.status, `${target}: ${res.body.slice(0, 200)}`).toBe(404);
        // Nor on the admin port: no image is optimised anywhere.
        expect((await raw(adminPort, target)).status, target).toBe(404);
      }
    }
    const after = (await raw(adminPort, "/metrics")).body;
    // The scrape before is the only /metrics request since, and no admin API request was made inside.
    expect(count(after, scrape)).toBe(count(before, scrape) + 1);
    expect(count(after, status)).toBe(count(before, status));
  });

  it("answers the public side on the public port only", async () => {
    const openapi = await raw(publicPort, "/openapi/public.json");
    expect(openapi.status).toBe(200);
    const onAdmin = await raw(adminPort, "/openapi/public.json");
    expect(onAdmin.status).toBe(404);
    expect(JSON.parse(onAdmin.body)).toEqual({ code: 404, message: "Not Found" });
  });
});
