import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailable } from "@/lib/errors";
import { openDatabase, rowsOf } from ".";
import { sessionAttributes } from "./client";

const url = process.env.DATABASE_URL;

describe("target_session_attrs", () => {
  it("read-write is asked of postgres.js as primary (its read-write accepts a Postgres 14+ standby)", () => {
    expect(sessionAttributes("postgres://u@a:1,b:2/db?target_session_attrs=read-write")).toEqual({
      target_session_attrs: "primary",
    });
    expect(sessionAttributes("postgres://u@a:1,b:2/db?target_session_attrs=any")).toEqual({});
    expect(sessionAttributes("postgres://u@a/db")).toEqual({});
  });
});

// A server that stops taking writes (a primary fenced read-only): the statement that meets 25006 is a
// 503, and the pool's connections to that server are ended, so they reconnect (to the next host first).
describe.skipIf(!url)("a read-only server (Postgres)", () => {
  it("answers a write 503 and ends the pool's connections to it", { timeout: 60_000 }, async () => {
    const admin = postgres(url!, { max: 1, onnotice: () => {} });
    const name = `sesame_read_only_${randomBytes(4).toString("hex")}`;
    await admin.unsafe(`create database ${name}`);
    const databaseUrl = url!.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
    const database = await openDatabase({ kind: "postgres", url: databaseUrl });
    try {
      await database.db.execute(sql`create table t (id int)`);
      const pids = async () =>
        (
          await admin<{ pid: number }[]>`
            select pid from pg_stat_activity where datname = ${name} and application_name like 'sesame/%'`
        ).map((row) => row.pid);
      // The pool's connections now open read-only (the setting applies to new sessions).
      await admin.unsafe(`alter database ${name} set default_transaction_read_only = on`);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
      const reads = () =>
        database.db.execute(sql`select 1`).then(
          () => true,
          () => false,
        );
      await expect.poll(reads, { timeout: 10_000 }).toBe(true);
      const before = await pids();
      expect(before.length).toBeGreaterThan(0);

      await expect(database.db.execute(sql`insert into t values (1)`)).rejects.toBeInstanceOf(
        DatabaseUnavailable,
      );
      await expect
        .poll(async () => (await pids()).filter((pid) => before.includes(pid)), { timeout: 10_000 })
        .toEqual([]);

      // Writable again: the pool reconnects and the write lands.
      await admin.unsafe(`alter database ${name} reset default_transaction_read_only`);
      await expect
        .poll(
          () =>
            database.db.execute(sql`insert into t values (2)`).then(
              () => true,
              () => false,
            ),
          { timeout: 10_000 },
        )
        .toBe(true);
      expect(
        rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from t`))[0]!.n,
      ).toBe(1);
    } finally {
      await database.close();
      await admin.unsafe(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});
