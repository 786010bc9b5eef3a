import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import { executor } from "@/lib/db";
import { passcodes } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import {
  createPasscodeTenant,
  createUserWithEmail,
  expectPublicError,
  publicCall,
  useDevOutbox,
} from "../helpers/public-api";

useDevOutbox();

const initialize = (tenant: Tenant, userId: string) =>
  publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
    body: { user_id: userId },
  });
const finalize = (tenant: Tenant, id: string, code: string) =>
  publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", { body: { id, code } });

async function liveCodes(tenant: Tenant, address: string) {
  const db = await executor();
  return db
    .select()
    .from(passcodes)
    .where(
      and(
        eq(passcodes.tenantId, tenant.id),
        eq(passcodes.address, address),
        isNull(passcodes.usedAt),
        sql`${passcodes.expiresAt} > clock_timestamp()`,
      ),
    );
}

describe("security 5: parallel passcode sends do not multiply the guesses", () => {
  it("security 5: eight parallel sends after two wrong guesses leave one live code that carries the two", async () => {
    const tenant = await createPasscodeTenant();
    const address = `${crypto.randomUUID()}@example.com`;
    const user = await createUserWithEmail(tenant, address);
    const first = (await (await initialize(tenant, user.id)).json()) as { id: string };
    for (let i = 0; i < 2; i++) await expectPublicError(await finalize(tenant, first.id, "000000"), 401);

    const sends = await Promise.all(Array.from({ length: 8 }, () => initialize(tenant, user.id)));
    const answered = await Promise.all(
      sends.map(async (res) => ({ status: res.status, body: (await res.json()) as { id?: string } })),
    );
    expect(answered.every((answer) => answer.status === 200)).toBe(true);

    const live = await liveCodes(tenant, address);
    expect(live).toHaveLength(1);
    expect(live[0]!.failedAttempts).toBe(2);
    const newest = live[0]!.id;
    // The one guess the design allows uses up the address's attempts; no other code is left to guess on.
    await expectPublicError(await finalize(tenant, newest, "999999"), 410, /max attempts/);
    await expectPublicError(await initialize(tenant, user.id), 429);
    for (const { body } of answered) {
      if (body.id === newest) continue;
      const res = await finalize(tenant, body.id!, "123456");
      expect([401, 408, 410]).toContain(res.status);
      expect(res.status).not.toBe(200);
    }
  });
});
