import { describe, expect, it } from "vitest";
import { call } from "@/tests/helpers/http";
import { GET as livez } from "@/app/(health)/livez/route";
import { GET as readyz } from "@/app/(health)/readyz/route";

describe("health probes", () => {
  it("GET /livez answers 200", async () => {
    const res = await call(livez, "/livez");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz answers 200 when the database answers and migrations are applied", async () => {
    const res = await call(readyz, "/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok" } });
  });
});
