import { describe, expect, it } from "vitest";
import { DatabaseUnavailable } from "@/lib/errors";
import { guarded, isDatabaseAway, neverReachedServer, withDatabaseDeadline } from "./availability";

const driverError = (code: string) => Object.assign(new Error(code), { code });
/** As drizzle wraps a driver's error (DrizzleQueryError keeps it as `cause`). */
const wrapped = (code: string) => new Error("Failed query", { cause: driverError(code) });

describe("database failures", () => {
  it("a connection that could not be opened never reached the server; a closed one may have", () => {
    for (const code of ["ECONNREFUSED", "CONNECT_TIMEOUT", "57P03", "53300"]) {
      expect(neverReachedServer(wrapped(code)), code).toBe(true);
    }
    for (const code of ["CONNECTION_CLOSED", "ECONNRESET", "57P01", "23505", "25006"]) {
      expect(neverReachedServer(wrapped(code)), code).toBe(false);
    }
  });

  it("the database away, a terminated connection or a standby are DATABASE_UNAVAILABLE; a wrong statement is not", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "57P01", "08006", "25006", "CONNECTION_ENDED"]) {
      expect(isDatabaseAway(wrapped(code)), code).toBe(true);
    }
    for (const code of ["23505", "42P01", "40001"]) expect(isDatabaseAway(wrapped(code)), code).toBe(false);
    expect(isDatabaseAway(new Error("boom"))).toBe(false);
  });
});

describe("guarded()", () => {
  it("sends a statement once more when the first attempt never reached the server", async () => {
    let attempts = 0;
    const result = await guarded(async () => {
      attempts++;
      if (attempts === 1) throw wrapped("ECONNREFUSED");
      return "ok";
    });
    expect(result).toBe("ok");
    expect(attempts).toBe(2);
  });

  it("never sends again a statement that may have reached the server, and answers it as unavailable", async () => {
    let attempts = 0;
    const failing = guarded(async () => {
      attempts++;
      throw wrapped("CONNECTION_CLOSED");
    });
    await expect(failing).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(attempts).toBe(1);
  });

  it("tries at most twice, and not at all again when the caller says it is no longer safe", async () => {
    let attempts = 0;
    await expect(
      guarded(async () => {
        attempts++;
        throw wrapped("ECONNREFUSED");
      }),
    ).rejects.toMatchObject({ code: "DATABASE_UNAVAILABLE", retryAfterSeconds: 5 });
    expect(attempts).toBe(2);
    attempts = 0;
    await expect(
      guarded(
        async () => {
          attempts++;
          throw wrapped("ECONNREFUSED");
        },
        () => false,
      ),
    ).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(attempts).toBe(1);
  });

  it("passes a statement's own error on unchanged", async () => {
    const duplicate = wrapped("23505");
    await expect(guarded(() => Promise.reject(duplicate))).rejects.toBe(duplicate);
  });

  it("ends a statement that outlives the request's deadline with DATABASE_UNAVAILABLE, not later", async () => {
    const started = performance.now();
    const never = new Promise<never>(() => {});
    await expect(withDatabaseDeadline(200, () => guarded(() => never))).rejects.toBeInstanceOf(
      DatabaseUnavailable,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("does not bound statements outside a request, or after the request has its answer", async () => {
    let late: Promise<string> | undefined;
    await withDatabaseDeadline(50, async () => {
      late = new Promise((resolve) => setTimeout(resolve, 150, "done")).then(() =>
        guarded(async () => "late statement"),
      );
    });
    expect(await late).toBe("late statement");
    expect(await guarded(() => new Promise((resolve) => setTimeout(resolve, 100, "no deadline")))).toBe(
      "no deadline",
    );
  });
});
