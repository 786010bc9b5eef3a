import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { executor, transaction } from ".";
import { fixedStatement } from "./statement";

const NAME = "current_setting('application_name')";

describe("fixedStatement", () => {
  it("builds its SQL once and runs it with each call's values", async () => {
    let builds = 0;
    const next = fixedStatement((db) => {
      builds++;
      return db
        .select({
          n: sql<number>`${sql.placeholder("n")}::int + 1`,
          word: sql<string>`${sql.placeholder("word")}::text`,
        })
        .from(sql`(select 1) as one`);
    });
    const db = await executor();
    expect(await next(db, { n: 1, word: "a" })).toEqual([{ n: 2, word: "a" }]);
    expect(await next(db, { n: 41, word: "b" })).toEqual([{ n: 42, word: "b" }]);
    expect(builds).toBe(1);
  });

  it("joins the transaction of the executor it is given", async () => {
    const setting = fixedStatement((db) =>
      db.select({ name: sql<string>`${sql.raw(NAME)}` }).from(sql`(select 1) as one`),
    );
    const seen = await transaction(async () => {
      const tx = await executor();
      await tx.execute(sql`set local application_name = 'sesame-fixed-statement'`);
      return setting(tx, {});
    });
    expect(seen).toEqual([{ name: "sesame-fixed-statement" }]);
    // Outside it, the setting is gone with the transaction.
    expect(await setting(await executor(), {})).not.toEqual([{ name: "sesame-fixed-statement" }]);
  });

  it("refuses a call without a value for a placeholder", async () => {
    const echo = fixedStatement((db) =>
      db.select({ v: sql<string>`${sql.placeholder("v")}::text` }).from(sql`(select 1) as one`),
    );
    await expect(echo(await executor(), {})).rejects.toThrow('No value for placeholder "v"');
  });
});
