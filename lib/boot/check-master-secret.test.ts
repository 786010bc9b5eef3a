import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { executor } from "@/lib/db";
import { sesameMeta } from "@/lib/db/schema";
import { checkMasterSecret } from "./check-master-secret";

describe("checkMasterSecret", () => {
  it("accepts the secret the database was set up with, and refuses another one", async () => {
    await checkMasterSecret();
    await checkMasterSecret();
    const db = await executor();
    const [row] = await db.select().from(sesameMeta).where(eq(sesameMeta.key, "master_secret_check"));
    expect((row!.value as { sealed: string }).sealed).not.toContain("sesame");

    // A canary sealed under another master secret (simulated by a foreign sealed value) stops start-up.
    await db
      .update(sesameMeta)
      .set({ value: { sealed: "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } })
      .where(eq(sesameMeta.key, "master_secret_check"));
    await expect(checkMasterSecret()).rejects.toThrow(/same SESAME_MASTER_SECRET/);
    await db.update(sesameMeta).set({ value: row!.value }).where(eq(sesameMeta.key, "master_secret_check"));
    await checkMasterSecret();
  });
});
