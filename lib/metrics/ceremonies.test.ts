import { describe, expect, it } from "vitest";
import { ceremonyOf } from "./ceremonies";

describe("ceremonyOf", () => {
  it.each([
    ["passkey.login.succeeded", { kind: "passkey.login", outcome: "succeeded" }],
    ["passkey.login.finalize.succeeded", { kind: "passkey.login", outcome: "succeeded" }],
    ["passkey.login.finalize.failed", { kind: "passkey.login", outcome: "failed" }],
    ["passkey.login.initialize.failed", { kind: "passkey.login", outcome: "failed" }],
    ["webauthn.security_key.finalize.succeeded", { kind: "webauthn.security_key", outcome: "succeeded" }],
    ["password.login.failed", { kind: "password.login", outcome: "failed" }],
    ["otp.check.succeeded", { kind: "otp.check", outcome: "succeeded" }],
    ["authenticator.authentication.failed", { kind: "authenticator.authentication", outcome: "failed" }],
    ["email.create.succeeded", { kind: "other", outcome: "succeeded" }],
    ["flow.login.password_login.failed", { kind: "other", outcome: "failed" }],
    [`${"x.".repeat(200)}failed`, { kind: "other", outcome: "failed" }],
  ])("%s is %o", (type, expected) => {
    expect(ceremonyOf(type)).toEqual(expected);
  });

  it.each([
    "passkey.login.initialize.succeeded",
    "user.deleted",
    "api_key.revoked",
    "password.locked",
    "succeeded",
  ])("%s ends no ceremony", (type) => {
    expect(ceremonyOf(type)).toBeUndefined();
  });
});
