import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionLost, markNeverExecuted, neverReachedServer } from "./availability";

const url = process.env.DATABASE_URL;

// A backend terminated while a statement runs and others wait behind it on the same connection
// (postgres.js pipelines when every connection is busy): the running one may have committed, the
// waiting ones provably never ran, and only those are marked to be sent again.
describe.skipIf(!url)("a terminated connection (Postgres)", () => {
  const table = `sesame_terminated_${randomBytes(4).toString("hex")}`;
  const admin = url ? postgres(url, { max: 1, onnotice: () => {} }) : undefined;

  beforeAll(async () => {
    await admin!.unsafe(`create table ${table} (id int)`);
  });
  afterAll(async () => {
    await admin!.unsafe(`drop table if exists ${table}`);
    await admin!.end({ timeout: 5 });
  });

  it("fails the running statement as closed and the pipelined ones as never executed", async () => {
    const name = `sesame-terminated-${randomBytes(4).toString("hex")}`;
    const pool = markNeverExecuted(
      postgres(url!, { max: 1, onnotice: () => {}, connection: { application_name: name } }),
    );
    try {
      await pool`select 1`;
      const outcome = (query: Promise<unknown>) =>
        query.then(
          () => "done",
          (error: unknown) => (error as { code?: string }).code,
        );
      const running = outcome(pool.unsafe(`insert into ${table} select 1 from pg_sleep(2)`));
      const waiting = [
        outcome(pool.unsafe(`insert into ${table} values (2)`)),
        outcome(pool.unsafe(`select count(*) from ${table}`)),
      ];
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [terminated] = await admin!<{ ended: number }[]>`
        select count(pg_terminate_backend(pid))::int as ended from pg_stat_activity where application_name = ${name}`;
      expect(terminated?.ended).toBe(1);

      expect(await running).toBe("CONNECTION_CLOSED");
      expect(await Promise.all(waiting)).toEqual(["STATEMENT_NOT_EXECUTED", "STATEMENT_NOT_EXECUTED"]);
      // Neither insert ran: the running one was ended before it committed, the waiting one never began.
      expect(await admin!.unsafe(`select id from ${table}`)).toEqual([]);

      // The pool reconnects. postgres.js fails the reconnected connection's first statement with the
      // FATAL it kept from the old one, before writing it: marked too, and it never ran.
      const again = () => outcome(pool.unsafe(`insert into ${table} values (3)`));
      const first = await again();
      if (first !== "done") {
        expect(first).toBe("STATEMENT_NOT_EXECUTED");
        expect(await again()).toBe("done");
      }
      expect(await admin!.unsafe(`select id from ${table}`)).toEqual([{ id: 3 }]);
    } finally {
      await pool.end({ timeout: 5 });
    }
  });
});

describe("what a failure proves", () => {
  const error = (code: string) =>
    new Error("Failed query", { cause: Object.assign(new Error(code), { code }) });

  it("a statement marked never executed may be sent again; a closed one may not", () => {
    expect(neverReachedServer(error("STATEMENT_NOT_EXECUTED"))).toBe(true);
    expect(neverReachedServer(error("CONNECTION_CLOSED"))).toBe(false);
  });

  it("a lost connection is told from a statement's own failure", () => {
    for (const code of [
      "CONNECTION_CLOSED",
      "ECONNRESET",
      "57P01",
      "ECONNREFUSED",
      "STATEMENT_NOT_EXECUTED",
    ]) {
      expect(connectionLost(error(code)), code).toBe(true);
    }
    for (const code of ["23505", "25006", "40001", "CONNECTION_ENDED"]) {
      expect(connectionLost(error(code)), code).toBe(false);
    }
  });
});
