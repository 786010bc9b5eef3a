import { describe, expect, it } from "vitest";
import { startBackgroundTask } from ".";

describe("startBackgroundTask", () => {
  it("runs a task again after each run, survives a failing run, and keeps one timer per name", async () => {
    let runs = 0;
    const task = {
      name: "test-task",
      intervalMs: 5,
      firstDelayMs: 1,
      run: async () => {
        runs += 1;
        if (runs === 2) throw new Error("a failing run");
        return runs;
      },
    };
    const stop = startBackgroundTask(task);
    expect(startBackgroundTask(task)).toBe(stop);
    await expect.poll(() => runs, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    stop();
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(runs).toBe(after);
    const again = startBackgroundTask(task);
    expect(again).not.toBe(stop);
    again();
  });
});
