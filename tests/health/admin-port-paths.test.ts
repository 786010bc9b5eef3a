import { describe, expect, it } from "vitest";
import { answersOn, portProblem, sideOf } from "@/scripts/lib/listener-paths.mjs";

const TENANT = "7d3f0a2e-6a1b-4c2d-9e8f-0123456789ab";

describe("which port answers which path (SESAME_ADMIN_PORT set)", () => {
  it.each([
    `/t/${TENANT}/admin`,
    `/t/${TENANT}/admin/`,
    `/t/${TENANT}/admin/users?page=2`,
    `/t/${TENANT}/admin/webhooks/abc/deliveries`,
    "/metrics",
    "/metrics/",
    "/metrics?x=1",
    "/console",
    "/console/tenants/abc",
    "/console?_rsc=1",
  ])("%s is the admin side: admin port only", (path) => {
    expect(sideOf(path)).toBe("admin");
    expect(answersOn("admin", path)).toBe(true);
    expect(answersOn("public", path)).toBe(false);
  });

  it.each([
    ["percent-encoded letters", `/t/${TENANT}/%61dmin/users`],
    ["double percent-encoding", "/%256detrics"],
    ["an encoded slash inside the tenant segment", "/t/a%2Fb/admin"],
    ["an encoded slash between segments", `/t/${TENANT}%2fadmin`],
    ["repeated slashes", "//metrics"],
    ["repeated slashes inside", `/t//${TENANT}//admin`],
    ["dot segments", `/t/${TENANT}/x/../admin`],
    ["encoded dot segments", `/livez/%2e%2e/console`],
    ["backslashes", `/t\\${TENANT}\\admin`],
    ["a parameter", `/t/${TENANT}/admin;v=1/users`],
    ["upper case", "/METRICS"],
    ["an absolute-form target", "http://example.com/metrics"],
    ["a fragment", "/console#x"],
    ["a climb above the root", "/../../metrics"],
    ["the assets' prefix", "/_next/../console"],
    // Next.js routes /_next/data/<build id>/<path>.json to <path> (found by review: reached the admin API).
    ["Next.js's data route to /metrics", "/_next/data/abc123/metrics.json"],
    ["Next.js's data route to the admin API", `/_next/data/abc123/t/${TENANT}/admin/users.json`],
    ["Next.js's data route to the status page", `/_next/data/abc123/t/${TENANT}/admin.json`],
    ["an encoded data route", `/_next/%64ata/abc123/t/${TENANT}/admin/sessions.json`],
    ["an extension", "/metrics.rsc"],
    ["a segment prefetch", "/console.segments/_tree.segment.rsc"],
    ["an extension on the admin segment", `/t/${TENANT}/admin.json`],
  ])("%s does not move the admin side to the public port: %s", (_, path) => {
    expect(sideOf(path)).toBe("admin");
    expect(answersOn("public", path)).toBe(false);
  });

  it.each([
    "/",
    `/t/${TENANT}/me`,
    `/t/${TENANT}/login`,
    `/t/${TENANT}/webauthn/login/initialize`,
    `/t/${TENANT}/hosted/login`,
    `/t/${TENANT}/.well-known/jwks.json`,
    `/passkey/${TENANT}/login/initialize`,
    "/v1/uaf/requests",
    "/mgmt/v1/devices",
    "/docs",
    "/openapi/admin.json",
    "/elements/v1/sesame-elements.js",
    "/examples/passkeys",
    "/t/admin",
    "/admin",
    "/metricsx",
    "/consoles",
    `/_next/data/abc123/t/${TENANT}/me.json`,
  ])("%s is the public side: public port only", (path) => {
    expect(sideOf(path)).toBe("public");
    expect(answersOn("public", path)).toBe(true);
    expect(answersOn("admin", path)).toBe(false);
  });

  it.each(["/livez", "/readyz", "/readyz/", "/_next/static/chunks/app.js", "/favicon.svg"])(
    "%s answers on both ports",
    (path) => {
      expect(sideOf(path)).toBe("shared");
      expect(answersOn("public", path)).toBe(true);
      expect(answersOn("admin", path)).toBe(true);
    },
  );

  it.each([
    "/_next/image?url=%2Fmetrics&w=64&q=75",
    "/_next/image?url=%2Fconsole&w=64&q=75",
    "/_next/image/?url=/favicon.svg",
    "/_next/%69mage?url=%2Fmetrics",
    "/_NEXT/IMAGE?url=%2Fmetrics",
    "//_next//image?url=%2Fmetrics",
    "/_next/static/../image?url=%2Fmetrics",
  ])("security 3.4: %s (the image optimizer) is answered on neither port", (target) => {
    expect(sideOf(target)).toBe("none");
    expect(answersOn("public", target)).toBe(false);
    expect(answersOn("admin", target)).toBe(false);
  });

  it.each(["*", "", "http://[bad"])("%j has no path: answered on neither port", (target) => {
    expect(sideOf(target)).toBe("invalid");
    expect(answersOn("public", target)).toBe(false);
    expect(answersOn("admin", target)).toBe(false);
  });

  it("checks a port setting as PORT is checked", () => {
    expect(portProblem("9090")).toBeUndefined();
    for (const bad of ["0", "65536", "abc", "90.5", "-1", " 90"]) {
      expect(portProblem(bad)).toBe("must be a whole number from 1 to 65535");
    }
  });
});
