import { describe, expect, it } from "vitest";
import {
  SECTIONS,
  durationError,
  fromFieldValue,
  toFieldValue,
  type FieldDef,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/_settings/sections";

/** Issue 29, point 9: the settings' durations are entered and shown in units, not raw seconds. */
const duration = { path: "sessionLifetimeSeconds", label: "Session lifetime", kind: "duration" } as FieldDef;

describe("durations in the tenant settings", () => {
  it.each([
    [43_200, "12 hours"],
    [86_400, "1 days"],
    [3_600, "1 hours"],
    [90, "90 seconds"],
    [300, "5 minutes"],
    [0, "0 minutes"],
  ])("%i seconds show as “%s” and go back as the same seconds", (seconds, shown) => {
    expect(toFieldValue(duration, seconds)).toBe(shown);
    expect(fromFieldValue(duration, shown)).toBe(seconds);
  });

  it("sends what the schema refuses for an amount that is no number (a field error, never a guess)", () => {
    expect(fromFieldValue(duration, " hours")).toBeNaN();
    expect(fromFieldValue(duration, "soon hours")).toBeNaN();
    expect(fromFieldValue(duration, "1.5 minutes")).toBe(90);
    expect(fromFieldValue(duration, "0.5 seconds")).toBe(0.5);
  });

  it("words the schema's bounds in units", () => {
    expect(durationError("Must be at least 60 seconds")).toBe("Must be at least 1 minute");
    expect(durationError("Must be at most 31536000 seconds")).toBe("Must be at most 365 days");
    expect(durationError("Enter 600 or less.")).toBe("Enter 10 minutes or less.");
  });

  it("shows no setting in raw seconds", () => {
    const fields = SECTIONS.flatMap((section) => section.fields);
    for (const field of fields.filter((candidate) => /Seconds$/.test(candidate.path))) {
      expect(field.kind, field.path).toBe("duration");
      expect(field.label, field.path).not.toMatch(/seconds/i);
    }
  });
});
