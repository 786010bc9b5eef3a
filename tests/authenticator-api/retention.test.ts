import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sweepOldRequests } from "@/lib/uaf-requests";
import { executor } from "@/lib/db";
import { uafRequests } from "@/lib/db/schema";
import { authenticatorRequest } from "../helpers/authenticator-api";
import { createTestTenant } from "../helpers/tenants";

describe("request retention", () => {
  it("sweeps requests 30 days past validUntil and keeps younger ones readable", async () => {
    const { keys } = await createTestTenant({ uaf: { allowTestAuthenticators: true } });
    const create = async () =>
      (
        await authenticatorRequest("POST", "/v1/uaf/requests", {
          apiKey: keys.authenticator,
          body: { operation: "REG", userId: "retention-user" },
        })
      ).json();
    const old = await create();
    const recent = await create();
    const db = await executor();
    await db
      .update(uafRequests)
      .set({ validUntil: sql`now() - interval '31 days'`, createdAt: sql`now() - interval '31 days'` })
      .where(eq(uafRequests.id, old.id));
    await db
      .update(uafRequests)
      .set({ validUntil: sql`now() - interval '29 days'` })
      .where(eq(uafRequests.id, recent.id));

    expect(await sweepOldRequests()).toBeGreaterThanOrEqual(1);
    const get = (id: string) =>
      authenticatorRequest("GET", `/v1/uaf/requests/${id}`, { apiKey: keys.authenticator });
    expect((await get(old.id)).status).toBe(404);
    const kept = await get(recent.id);
    expect(kept.status).toBe(200);
    expect((await kept.json()).status).toBe("FAILED");
  });
});
