import { describe, expect, it } from "vitest";
import { mergePatch, type JsonValue } from "./merge-patch";

describe("mergePatch (RFC 7396)", () => {
  // Appendix A, every example: original, patch, result.
  const examples: [JsonValue, JsonValue, JsonValue][] = [
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [
      ["a", "b"],
      ["c", "d"],
      ["c", "d"],
    ],
    [{ a: "b" }, ["c"], ["c"]],
    [{ a: "foo" }, null, null],
    [{ a: "foo" }, "bar", "bar"],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];

  it.each(examples)("%j patched with %j is %j", (original, patch, result) => {
    expect(mergePatch(original, patch)).toEqual(result);
  });

  it("the section 3 example", () => {
    const target = {
      title: "Goodbye!",
      author: { givenName: "John", familyName: "Doe" },
      tags: ["example", "sample"],
      content: "This will be unchanged",
    };
    const patch = {
      title: "Hello!",
      phoneNumber: "+01-123-456-7890",
      author: { familyName: null },
      tags: ["example"],
    };
    expect(mergePatch(target, patch)).toEqual({
      title: "Hello!",
      author: { givenName: "John" },
      tags: ["example"],
      content: "This will be unchanged",
      phoneNumber: "+01-123-456-7890",
    });
  });

  it("treats a missing target as an empty object and leaves its arguments unchanged", () => {
    const target = { a: { b: 1 } };
    const patch = { a: { c: 2 } };
    expect(mergePatch(undefined, patch)).toEqual({ a: { c: 2 } });
    expect(mergePatch(target, patch)).toEqual({ a: { b: 1, c: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { c: 2 } });
  });
});
