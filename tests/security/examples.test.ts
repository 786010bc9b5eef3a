import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before anything reads the configuration: the examples are off, as on a public deployment.
vi.stubEnv("SESAME_EXAMPLES", "false");

const { approveLink, newAuthenticatorState, openLink } =
  await import("@/app/(examples)/examples/authenticator/actions");
const { beginRegistration, listCredentials } = await import("@/app/(examples)/examples/passkeys/actions");
const { startRequest } = await import("@/app/(examples)/examples/uaf/actions");
const { AppLinkError, fetchAppRequest, parseAppLink } = await import("@/lib/uaf-client");
const { createSoftwareAuthenticatorState } = await import("@/lib/ceremonies/uaf");

/** A loopback server that records every request: nothing may reach it. */
let hits: string[] = [];
let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith("/v1/uaf/app/requests/")) {
      res.writeHead(302, { location: `${origin}/elsewhere` }).end();
    } else {
      res.writeHead(200).end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ID = "3f2b8c1e-5d4a-4b6c-8e7f-9a0b1c2d3e4f";

describe("security 2: the example authenticator fetches only Sesame's own links", () => {
  it("security 2: a link to another host or port is refused before any request", () => {
    expect(() =>
      parseAppLink(`${origin}/v1/uaf/app/requests/${ID}?token=t`, { origin: "http://localhost:3000" }),
    ).toThrow(AppLinkError);
    expect(
      parseAppLink(`http://localhost:3000/v1/uaf/app/requests/${ID}?token=t`, {
        origin: "http://localhost:3000",
      }).requestId,
    ).toBe(ID);
  });

  it("security 2: a redirect from a request link is not followed", async () => {
    hits = [];
    await expect(
      fetchAppRequest(parseAppLink(`${origin}/v1/uaf/app/requests/${ID}?token=t`)),
    ).rejects.toThrow();
    expect(hits).toEqual([`GET /v1/uaf/app/requests/${ID}?token=t`]);
  });
});

describe("security 3: the example pages' server actions are off unless the examples are on", () => {
  it("security 3: with SESAME_EXAMPLES off every action refuses and nothing is fetched", async () => {
    hits = [];
    const state = createSoftwareAuthenticatorState({ facetId: "http://localhost:3000" });
    const link = `${origin}/v1/uaf/app/requests/${ID}?token=t`;
    for (const result of [
      await openLink(state, link),
      await approveLink(state, link),
      await newAuthenticatorState(),
    ]) {
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/example pages are off/) });
    }
    await expect(beginRegistration("alice")).rejects.toThrow(/example pages are off/);
    await expect(listCredentials("alice")).rejects.toThrow(/example pages are off/);
    expect(await startRequest("REG", "alice")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/example pages are off/),
    });
    expect(hits).toEqual([]);
  });
});
