import { describe, expect, it } from "vitest";
import { mergePatch, type JsonValue } from "./merge-patch";
import { mergePatchBetween } from "./patch-between";

describe("mergePatchBetween", () => {
  const cases: [Record<string, unknown>, Record<string, unknown>][] = [
    [{}, { a: 1 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [{ a: { b: 1, c: [1, 2] } }, { a: { b: 1, c: [2] }, d: "x" }],
    [{ a: { b: 1 } }, { a: 5 }],
    [{ a: [1] }, { a: { b: { c: true } } }],
    [{ a: 1 }, {}],
  ];

  it.each(cases)("patches %j into %j", (from, to) => {
    const patch = mergePatchBetween(from, to);
    expect(mergePatch(from as JsonValue, patch as JsonValue)).toEqual(to);
  });

  it("is empty when nothing changed and sends only what changed", () => {
    expect(mergePatchBetween({ a: { b: [1] }, c: "d" }, { a: { b: [1] }, c: "d" })).toEqual({});
    expect(mergePatchBetween({ a: { b: 1, c: 2 }, d: 3 }, { a: { b: 1, c: 4 }, d: 3 })).toEqual({
      a: { c: 4 },
    });
  });

  it("keeps a __proto__ key a key", () => {
    const to = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const patch = mergePatchBetween({}, to);
    expect(Object.keys(patch)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(patch)).toBe(Object.prototype);
  });
});
