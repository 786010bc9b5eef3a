import { describe, expect, it } from "vitest";
import { consoleReturnPath } from "./return-path";

describe("consoleReturnPath", () => {
  it.each([
    ["/console/tenants/abc/users?q=ada", "/console/tenants/abc/users?q=ada"],
    ["/console", "/console"],
    ["/console/audit#x", "/console/audit#x"],
  ])("keeps the console page %s", (next, expected) => {
    expect(consoleReturnPath(next)).toBe(expected);
  });

  it.each([
    undefined,
    42,
    "",
    "https://evil.example/console",
    "//evil.example/console",
    "/console//evil.example",
    "/\\evil.example",
    "/console\\..\\..\\x",
    "/consolex",
    "/t/abc/hosted/login",
    "/console/sign-in?next=/console",
    "/console/api/auth/signout",
    "/console/enroll#token",
    "/console/../t/abc",
    `/console/${"a".repeat(3000)}`,
    "/console/\nx",
  ])("falls back to the overview for %j", (next) => {
    expect(consoleReturnPath(next)).toBe("/console");
  });
});
