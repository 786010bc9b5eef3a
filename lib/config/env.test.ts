import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, firstHostUrl, parseConfig } from "./env";

describe("parseConfig", () => {
  it("uses the documented defaults for an empty environment", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      baseUrl: "http://localhost:3000",
      databaseUrl: undefined,
      dataDir: path.resolve(".data"),
      masterSecret: undefined,
      logLevel: "info",
      seedDemo: true,
    });
  });

  it("security 3: serves the example pages by default only on localhost; SESAME_EXAMPLES decides otherwise", () => {
    expect(parseConfig({}).examples).toBe("local");
    expect(parseConfig({ SESAME_BASE_URL: "http://127.0.0.1:3000" }).examples).toBe("local");
    expect(parseConfig({ SESAME_BASE_URL: "https://auth.example.com" }).examples).toBe("off");
    expect(parseConfig({ SESAME_EXAMPLES: "false" }).examples).toBe("off");
    expect(
      parseConfig({ SESAME_BASE_URL: "https://auth.example.com", SESAME_EXAMPLES: "true" }).examples,
    ).toBe("on");
    expect(() => parseConfig({ SESAME_EXAMPLES: "maybe" })).toThrow(
      /SESAME_EXAMPLES="maybe": must be true or false/,
    );
  });

  it("derives the base URL from the port and strips a trailing slash from an explicit one", () => {
    expect(parseConfig({ PORT: "4000" }).baseUrl).toBe("http://localhost:4000");
    expect(parseConfig({ SESAME_BASE_URL: "https://auth.example.com/" }).baseUrl).toBe(
      "https://auth.example.com",
    );
  });

  it.each([
    ["PORT", "abc", "must be a whole number from 1 to 65535"],
    ["PORT", "70000", "must be a whole number from 1 to 65535"],
    ["DATABASE_URL", "mysql://x@y/z", "must be a postgres:// or postgresql:// URL"],
    ["SESAME_BASE_URL", "localhost:3000", "must be an absolute http(s) URL"],
    ["SESAME_MASTER_SECRET", "short", "must be at least 32 characters long"],
    ["LOG_LEVEL", "loud", "must be one of fatal, error, warn, info, debug, trace, silent"],
    ["SESAME_SEED_DEMO", "maybe", "must be true or false"],
  ])("rejects %s=%s naming the variable and what is allowed", (variable, value, allowed) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(ConfigError);
    try {
      parseConfig({ [variable]: value });
    } catch (error) {
      expect((error as Error).message).toContain(`${variable}="${value}"`);
      expect((error as Error).message).toContain(allowed);
    }
  });

  it("reports every wrong variable at once", () => {
    expect(() => parseConfig({ PORT: "0", LOG_LEVEL: "x" })).toThrow(/PORT=.*\n.*LOG_LEVEL=/s);
  });

  it("takes a Postgres URL with several hosts (to follow a failover)", () => {
    const url = "postgres://sesame:pw@db1:5432,db2:5433/sesame?target_session_attrs=read-write";
    expect(parseConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(firstHostUrl(url)).toBe("postgres://sesame:pw@db1:5432/sesame?target_session_attrs=read-write");
    expect(() => parseConfig({ DATABASE_URL: "mysql://db1,db2/x" })).toThrow(/postgres:\/\//);
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", PORT: "" })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });
});

describe("SESAME_ADMIN_PORT and SESAME_METRICS_TOKEN (docs/metrics.md)", () => {
  it("are unset by default: one port, /metrics open", () => {
    expect(parseConfig({})).toMatchObject({ adminPort: undefined, metricsToken: undefined });
  });

  it("reads a second port and a scrape token", () => {
    const token = "0123456789abcdef-token";
    expect(
      parseConfig({ PORT: "8080", SESAME_ADMIN_PORT: "9090", SESAME_METRICS_TOKEN: token }),
    ).toMatchObject({ port: 8080, adminPort: 9090, metricsToken: token });
  });

  it.each([
    ["SESAME_ADMIN_PORT", "abc", "must be a whole number from 1 to 65535, other than PORT"],
    ["SESAME_ADMIN_PORT", "0", "must be a whole number from 1 to 65535, other than PORT"],
    ["SESAME_ADMIN_PORT", "3000", "must be a whole number from 1 to 65535, other than PORT"],
    ["SESAME_METRICS_TOKEN", "short", "must be at least 16 characters long"],
    ["SESAME_METRICS_TOKEN", "with a space 0123456789", "must be printable ASCII without spaces"],
  ])("rejects %s=%s", (variable, value, allowed) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(`${variable}="${value}": ${allowed}`);
  });

  it("rejects an admin port equal to an explicit PORT", () => {
    expect(() => parseConfig({ PORT: "8080", SESAME_ADMIN_PORT: "8080" })).toThrow(
      'SESAME_ADMIN_PORT="8080": must be a whole number from 1 to 65535, other than PORT',
    );
  });
});
