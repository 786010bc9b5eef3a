import { describe, expect, it } from "vitest";
import { stepMemo } from "./memo";

describe("stepMemo", () => {
  it("loads a key once and hands every caller the same value", async () => {
    const memo = stepMemo();
    let loads = 0;
    const load = async () => ({ loads: ++loads });
    const [first, second] = await Promise.all([memo("profile", load), memo("profile", load)]);
    expect(await memo("profile", load)).toBe(first);
    expect(second).toBe(first);
    expect(loads).toBe(1);
  });

  it("keeps keys apart, and a new memo loads afresh", async () => {
    const memo = stepMemo();
    expect(await memo("a", async () => 1)).toBe(1);
    expect(await memo("b", async () => 2)).toBe(2);
    expect(await stepMemo()("a", async () => 3)).toBe(3);
  });

  it("forgets a failed load, so the next call tries again", async () => {
    const memo = stepMemo();
    await expect(memo("profile", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await memo("profile", async () => "loaded")).toBe("loaded");
  });
});
