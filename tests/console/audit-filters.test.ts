import { describe, expect, it } from "vitest";
import { ValidationFailed } from "@/lib/errors";
import {
  auditFilterOf,
  filterErrorsOf,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/audit/filters";

/** Issue 29, point 5: the audit page's filters answer bad input in the words of their labels. */
describe("audit log filters", () => {
  it.each([
    [{ ip: "not an ip" }, "ip", /^Enter one IP address/],
    [{ from: "28.11.2026" }, "from", /^Enter a date as YYYY-MM-DD/],
    [{ to: "yesterday" }, "to", /^Enter a date as YYYY-MM-DD/],
    [{ from: "2026-11-28", to: "2026-11-01" }, "to", /“From \(UTC\)”/],
  ])("%j → %s", (search, field, message) => {
    const { filter, errors } = auditFilterOf(search);
    expect(filter).toBeUndefined();
    expect(errors[field as keyof typeof errors]).toMatch(message);
    for (const text of Object.values(errors)) {
      expect(text).not.toMatch(/Invalid input|Too small|must be after start_time|Bad Request/);
    }
  });

  it("words the domain's refusals for the page's fields", () => {
    const errors = filterErrorsOf(
      new ValidationFailed([
        'query.type: "x!" is not an event type (a.b.c)',
        "query.end_time: must be after start_time",
      ]),
    );
    expect(errors).toEqual({
      type: 'Query.type: "x!" is not an event type (a.b.c)'.replace("Query.type: ", ""),
      to: "Pick a day on or after the “From (UTC)” day.",
    });
  });

  it("takes a good filter", () => {
    const { filter, errors } = auditFilterOf({ ip: "203.0.113.7", from: "2026-11-01", to: "2026-11-28" });
    expect(errors).toEqual({});
    expect(filter).toMatchObject({ ip: "203.0.113.7" });
  });
});
