import { describe, expect, it } from "vitest";
import { DatabaseUnavailable } from "@/lib/errors";
import { presentError } from "@/lib/http/presenters";
import {
  isExempt,
  maxInFlightProblem,
  overloadAnswer,
  overloadRetryAfter,
} from "@/scripts/lib/admission.mjs";

/**
 * scripts/server.mjs refuses requests past SESAME_MAX_REQUESTS_IN_FLIGHT before Next.js sees them: the
 * refusal must be the very 503 each surface answers for an unavailable database (its presenter's shape).
 */
describe("admission control", () => {
  const cases = [
    ["/passkey/0b6c1b2e-9d7e-4d39-9c1e-2f0c6f6b2a10/login/initialize", "passkey"],
    ["/t/0b6c1b2e-9d7e-4d39-9c1e-2f0c6f6b2a10/login?x=1", "flow"],
    ["/t/0b6c1b2e-9d7e-4d39-9c1e-2f0c6f6b2a10/admin/users", "admin"],
    ["/t/0b6c1b2e-9d7e-4d39-9c1e-2f0c6f6b2a10/me", "public"],
    ["/v1/uaf/requests", "authenticator"],
  ] as const;

  it.each(cases)("refuses %s with its surface's 503 and Retry-After", async (url, surface) => {
    const answer = overloadAnswer(url, 1);
    const presented = presentError(surface, new DatabaseUnavailable());
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("1");
    expect(JSON.parse(answer.body)).toEqual(await presented.json());
  });

  it("spreads Retry-After evenly over 1 to 3 whole seconds", () => {
    expect([0, 0.3, 0.34, 0.66, 0.67, 0.999999].map((r) => overloadRetryAfter(() => r))).toEqual([
      1, 1, 2, 2, 3, 3,
    ]);
    const drawn = Array.from({ length: 3000 }, () => overloadRetryAfter());
    for (const seconds of [1, 2, 3]) {
      expect(drawn.filter((s) => s === seconds).length).toBeGreaterThan(800);
    }
    expect(drawn.every((s) => Number.isInteger(s) && s >= 1 && s <= 3)).toBe(true);
  });

  it("always admits the health probes, and only them", () => {
    expect(isExempt("/livez")).toBe(true);
    expect(isExempt("/readyz?full=1")).toBe(true);
    expect(isExempt("/metrics")).toBe(false);
    expect(isExempt("/readyz/x")).toBe(false);
  });

  it("takes a bound from 1 to 100000", () => {
    expect(maxInFlightProblem("256")).toBeUndefined();
    for (const wrong of ["0", "-1", "1.5", "lots", "100001"]) {
      expect(maxInFlightProblem(wrong)).toBe("must be a whole number from 1 to 100000");
    }
  });
});
