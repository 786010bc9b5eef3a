import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as appRequestRoute from "@/app/(authenticator-api)/v1/uaf/app/requests/[id]/route";
import * as linkRoute from "@/app/(authenticator-api)/v1/uaf/requests/[id]/link/route";
import * as requestRoute from "@/app/(authenticator-api)/v1/uaf/requests/[id]/route";
import * as requestsRoute from "@/app/(authenticator-api)/v1/uaf/requests/route";
import { updateTenant } from "@/lib/tenants";
import { call } from "../helpers/http";
import { createTestTenant } from "../helpers/tenants";

/**
 * `sesame authenticator …` as a person runs it: real CLI processes talking HTTP to the real app-facing
 * route handlers, served by a small node:http server in this process (next start would take a minute).
 * The CLI gets a database URL nothing listens on: its authenticator commands must never open one.
 */

const TSX = path.resolve("node_modules/.bin/tsx");
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-cli-authenticator-"));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ENV = {
  ...process.env,
  SESAME_DATA_DIR: path.join(workDir, "data"),
  DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
  LOG_LEVEL: "warn",
};

function collect(child: ChildProcessWithoutNullStreams): Promise<Run> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Asynchronous, so that this process keeps serving the CLI's HTTP calls while it runs. Stdin is a pipe. */
function sesame(...args: string[]): Promise<Run> {
  const child = spawn(TSX, ["cli/sesame.ts", ...args], { env: ENV });
  child.stdin.end();
  return collect(child);
}

// util-linux `script` runs a command on a pseudo-terminal: the CLI sees a person at a terminal.
const hasTerminal = spawnSync("script", ["--version"]).status === 0;
const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Runs the CLI on a terminal where the person types `typed`; stdout and stderr arrive together. */
function sesameOnTerminal(typed: string, ...args: string[]): Promise<Run> {
  const command = [TSX, "cli/sesame.ts", ...args].map(quote).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], { env: ENV });
  child.stdin.end(`${typed}\n`);
  return collect(child);
}

/** Serves the app-facing routes (all the CLI talks to) with the real handlers, Next.js style. */
function appServer(): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const id = /^\/v1\/uaf\/app\/requests\/([^/]+)$/.exec(url.pathname)?.[1];
      const handler = req.method === "GET" || req.method === "PUT" ? appRequestRoute[req.method] : undefined;
      if (!id || !handler) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"code":404,"messsage":"Not Found"}');
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
          headers.append(name, item);
        }
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = await handler(new Request(url, { method: req.method ?? "GET", headers, body }), {
        params: Promise.resolve({ id: decodeURIComponent(id) }),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
}

let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = appServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(workDir, { recursive: true, force: true });
});

interface RequestView {
  id: string;
  status: string;
  transaction?: string;
  device?: { keyName: string };
}

/**
 * A fresh tenant trusting the test server's origin as a FacetID (the CLI claims the link's origin), and
 * its relying party's side in-process.
 */
async function setup(uaf: Record<string, unknown> = {}) {
  const { tenant, keys } = await createTestTenant({
    uaf: { allowTestAuthenticators: true, facetIds: [origin], ...uaf },
  });
  const headers = { authorization: `secret ${keys.authenticator}` };
  const json = async <T>(res: Response): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as T;
  };
  return {
    tenant,
    create: async (body: Record<string, unknown>) =>
      json<RequestView>(
        await call(requestsRoute.POST, "/v1/uaf/requests", { method: "POST", headers, body }),
      ),
    get: async (id: string) =>
      json<RequestView>(await call(requestRoute.GET, `/v1/uaf/requests/${id}`, { headers, params: { id } })),
    /** The QR code's payload, pointed at the test server (the configured base URL is another origin). */
    link: async (id: string): Promise<string> => {
      const { href } = await json<{ href: string }>(
        await call(linkRoute.GET, `/v1/uaf/requests/${id}/link`, { headers, params: { id } }),
      );
      const url = new URL(href);
      return `${origin}${url.pathname}${url.search}`;
    },
  };
}

const read = (file: string) => fs.readFileSync(file, "utf8");

// Each test starts the CLI several times as its own tsx process (3-5 s of CPU each): minutes on a busy machine.
describe("npm run sesame -- authenticator", { timeout: 300_000 }, () => {
  it("registers, confirms a transaction and deregisters through QR links, keeping its keys in a file", async () => {
    const t = await setup();
    const file = path.join(workDir, "phone", "keys.json");

    const reg = await t.create({ operation: "REG", userId: "u-1", username: "alice" });
    const regLink = await t.link(reg.id);

    // Without a terminal, nothing is answered unless --yes says so; no key file appears.
    const unconfirmed = await sesame("authenticator", "scan", regLink, "--file", file);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stdout).toContain("User         alice");
    expect(unconfirmed.stderr).toMatch(/^Error: not answered: .*--yes/m);
    expect(fs.existsSync(file)).toBe(false);
    expect((await t.get(reg.id)).status).toBe("PENDING");

    const registered = await sesame(
      "authenticator",
      "register",
      regLink,
      "--yes",
      "--file",
      file,
      "--key-name",
      "CLI phone",
      "--json",
    );
    expect(registered.code, registered.stderr).toBe(0);
    const regOutput = JSON.parse(registered.stdout);
    expect(regOutput).toMatchObject({
      request: { id: reg.id, operation: "REG", username: "alice", relyingParty: { id: t.tenant.id } },
      outcome: { status: "OK" },
      file,
      saved: true,
    });
    expect(registered.stderr).toContain("Request      REG"); // with --json, what it asks goes to stderr
    expect(await t.get(reg.id)).toMatchObject({ status: "OK", device: { keyName: "CLI phone" } });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const afterRegistration = read(file);
    expect(afterRegistration).toContain('"privateKey"');

    // The link answered once: a second scan gets a clear 401 and leaves the key file as it was.
    const reused = await sesame("authenticator", "scan", regLink, "--yes", "--file", file);
    expect(reused.code).toBe(1);
    expect(reused.stderr.trim()).toMatch(/^Error: the server refused the link \(401\): it was already used/);
    expect(reused.stderr.trim().split("\n")).toHaveLength(1);
    expect(read(file)).toBe(afterRegistration);

    const listed = await sesame("authenticator", "list", "--file", file, "--json");
    expect(listed.code, listed.stderr).toBe(0);
    const list = JSON.parse(listed.stdout);
    expect(list).toMatchObject({ file, aaid: "FFFF#5E5A", facetId: origin, attestation: "basic_surrogate" });
    expect(list.keys).toEqual([
      expect.objectContaining({ appID: origin, username: "alice", signCounter: 0, regCounter: 1 }),
    ]);
    expect(listed.stdout).not.toContain("privateKey");

    // AUTH with a transaction: the text is shown before signing, and the server checks its hash.
    const auth = await t.create({ operation: "AUTH", userId: "u-1", transaction: "Pay 10 EUR to Bob?" });
    const authLink = await t.link(auth.id);
    const wrongAlias = await sesame("authenticator", "deregister", authLink, "--yes", "--file", file);
    expect(wrongAlias.code).toBe(1);
    expect(wrongAlias.stderr).toContain("this link is an AUTH request, not DEREG; nothing was sent");
    expect((await t.get(auth.id)).status).toBe("PENDING");

    if (hasTerminal) {
      // At a terminal the person reads the transaction and decides; "no" sends nothing.
      const declined = await sesameOnTerminal("n", "authenticator", "scan", authLink, "--file", file);
      expect(declined.code).toBe(1);
      expect(declined.stdout).toContain('Transaction  "Pay 10 EUR to Bob?"');
      expect(declined.stdout).toContain("Confirm this transaction? [y/N]");
      expect(declined.stdout).toContain("Error: declined: nothing was sent, the request stays pending");
      expect((await t.get(auth.id)).status).toBe("PENDING");
      const confirmed = await sesameOnTerminal(
        "y",
        "authenticator",
        "authenticate",
        authLink,
        "--file",
        file,
      );
      expect(confirmed.code, confirmed.stdout).toBe(0);
      expect(confirmed.stdout).toContain("OK: transaction confirmed");
    } else {
      const authenticated = await sesame("authenticator", "authenticate", authLink, "--yes", "--file", file);
      expect(authenticated.code, authenticated.stderr).toBe(0);
      expect(authenticated.stdout).toContain('Transaction  "Pay 10 EUR to Bob?"');
      expect(authenticated.stdout).toContain("OK: transaction confirmed");
    }
    expect(await t.get(auth.id)).toMatchObject({ status: "OK", transaction: "Pay 10 EUR to Bob?" });
    const text = await sesame("authenticator", "list", "--file", file);
    expect(text.stdout).toContain(`FacetID ${origin}`);
    expect(text.stdout).toMatch(/alice\s+\S{12}…\s+1\s/);

    // DEREG: the server removed the registration already; the app forgets its key.
    const dereg = await t.create({ operation: "DEREG", userId: "u-1" });
    expect(dereg.status).toBe("OK");
    const deregistered = await sesame(
      "authenticator",
      "scan",
      await t.link(dereg.id),
      "--yes",
      "--file",
      file,
      "--json",
    );
    expect(deregistered.code, deregistered.stderr).toBe(0);
    expect(JSON.parse(deregistered.stdout)).toMatchObject({ outcome: { status: "OK" }, removed: 1 });
    expect(JSON.parse((await sesame("authenticator", "list", "--file", file, "--json")).stdout).keys).toEqual(
      [],
    );

    // Never a database: not the URL it was given, not a PGlite folder in its data dir.
    expect(fs.existsSync(path.join(workDir, "data", "pglite"))).toBe(false);
  });

  it("says in one line what went wrong and leaves the key file alone", async () => {
    const t = await setup();
    const file = path.join(workDir, "errors.json");
    const init = await sesame("authenticator", "init", "--file", file, "--facet-id", origin);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`Created ${file}: AAID FFFF#5E5A, basic surrogate attestation`);
    const before = read(file);

    const again = await sesame("authenticator", "init", "--file", file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists; --force replaces it");

    const badLink = await sesame(
      "authenticator",
      "scan",
      "https://example.com/nothing",
      "--yes",
      "--file",
      file,
    );
    expect(badLink.code).toBe(1);
    expect(badLink.stderr.trim()).toBe(
      "Error: bad link: not a Sesame request link: expected …/v1/uaf/app/requests/<id>?token=…",
    );

    // A server that is gone: connection refused.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const reg = await t.create({ operation: "REG", userId: "u-2" });
    const link = await t.link(reg.id);
    const unreachable = await sesame(
      "authenticator",
      "scan",
      link.replace(origin, `http://127.0.0.1:${closedPort}`),
      "--yes",
      "--file",
      file,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toBe(
      `Error: cannot reach http://127.0.0.1:${closedPort}: ECONNREFUSED`,
    );

    // A wrong token is refused like a used one.
    const forged = await sesame(
      "authenticator",
      "scan",
      link.replace(/token=[^&]+/, "token=forged"),
      "--yes",
      "--file",
      file,
    );
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain("(401)");

    // The server refuses the answer (REG asking for full attestation, the file's is surrogate): FAILED.
    const direct = await t.create({
      operation: "REG",
      userId: "u-3",
      attestationConveyancePreference: "direct",
    });
    const failed = await sesame("authenticator", "scan", await t.link(direct.id), "--yes", "--file", file);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim()).toMatch(
      /^Error: the server did not accept the answer: FAILED \(UAF status \d+: .+\)$/,
    );
    expect((await t.get(direct.id)).status).toBe("FAILED");
    expect(read(file)).toBe(before);

    const missing = await sesame("authenticator", "list", "--file", path.join(workDir, "none.json"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no authenticator key file at");
  });

  it("registers with basic full attestation once the tenant trusts the file's root", async () => {
    const t = await setup({ allowSurrogate: false });
    const file = path.join(workDir, "full.json");
    const init = await sesame("authenticator", "init", "--file", file, "--attestation", "full", "--json");
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ facetId: null, attestation: "basic_full" });
    const root = await sesame("authenticator", "root", "--file", file);
    expect(root.stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    await updateTenant(t.tenant.id, { uaf: { trustedRoots: [root.stdout] } });

    const reg = await t.create({
      operation: "REG",
      userId: "u-4",
      attestationConveyancePreference: "direct",
    });
    const registered = await sesame("authenticator", "scan", await t.link(reg.id), "--yes", "--file", file);
    expect(registered.code, registered.stderr).toBe(0);
    expect(registered.stdout).toContain(`Saved ${file} (FacetID ${origin}, from the link)`);
    expect((await t.get(reg.id)).status).toBe("OK");
  });
});
