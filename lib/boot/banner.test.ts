import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { banner, outboxWarning } from "./banner";
import type { DemoTenant } from "./seed-demo-tenant";

const demo: DemoTenant = {
  tenantId: "5b0e2c1a-7f43-4d5c-9a51-0d7c1b3e2f10",
  name: "Demo",
  rpId: "localhost",
  origins: ["http://localhost:3000"],
  keys: {
    admin: "sesame_admin_ADMINADMINADMINADMINADMINADMINADMINADMIN123",
    passkey: "sesame_passkey_PASSKEYPASSKEYPASSKEYPASSKEYPASSKEYPASSKE",
    authenticator: "sesame_authenticator_AUTHAUTHAUTHAUTHAUTHAUTHAUTHAUTHAUTHAUT",
  },
};

describe("security 3: the start-up banner", () => {
  it("security 3: shows the demo admin key once, when the tenant is created, and never on later starts", () => {
    const config = parseConfig({});
    expect(banner(config, demo, true)).toContain(demo.keys.admin);
    const later = banner(config, demo, false);
    expect(later).not.toContain(demo.keys.admin);
    expect(later).toContain("demo-keys.json");
    expect(later).toContain(demo.keys.passkey);
  });

  it("security 3: names the example pages only while they are on", () => {
    expect(banner(parseConfig({}), demo, false)).toContain("/examples/passkeys");
    const off = banner(parseConfig({ SESAME_EXAMPLES: "false" }), demo, false);
    expect(off).not.toContain("/examples/");
    expect(off).toContain("example pages      off");
  });
});

describe("security 11: the dev outbox warns away from localhost", () => {
  it("security 11: a loud warning when codes go to the log on a public URL, none on localhost or with SMTP", () => {
    const exposed = parseConfig({ SESAME_BASE_URL: "https://auth.example.com" });
    expect(outboxWarning(exposed)).toMatch(/WARNING: SMTP_URL is not set/);
    expect(banner(exposed, undefined, false)).toMatch(/codes are written to the log .* in clear/);
    expect(outboxWarning(parseConfig({}))).toBeUndefined();
    expect(outboxWarning(parseConfig({ SESAME_BASE_URL: "http://127.0.0.1:3000" }))).toBeUndefined();
    expect(
      outboxWarning(
        parseConfig({ SESAME_BASE_URL: "https://auth.example.com", SMTP_URL: "smtp://mail.example.com:587" }),
      ),
    ).toBeUndefined();
  });
});

describe("security 3.5: the banner says how /metrics is scraped", () => {
  it("security 3.5: closed on a public URL without token or admin port, open on localhost", () => {
    const closed = banner(parseConfig({ SESAME_BASE_URL: "https://auth.example.com" }), undefined, false);
    expect(closed).toContain("Metrics    https://auth.example.com/metrics  (closed:");
    expect(closed).toMatch(/GET \/metrics answers 401 to every scrape/);
    const local = banner(parseConfig({}), undefined, false);
    expect(local).toContain("Metrics    http://localhost:3000/metrics  (open:");
    expect(local).not.toContain("answers 401");
  });
});
