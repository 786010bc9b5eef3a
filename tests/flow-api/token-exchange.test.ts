import { describe, expect, it } from "vitest";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import {
  act,
  expectFlowError,
  expectState,
  flowIdOf,
  flowRow,
  postHref,
  sessionCookieOf,
  startFlow,
} from "../helpers/flows";
import { createPublicTenant, createUserWithEmail, validateSessionCookie } from "../helpers/public-api";
import { bindingCookie, bindingOf } from "../helpers/token-binding";

describe("token_exchange flow", () => {
  it("exchanges a one-time token for a session in success", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const token = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });

    const start = expectState(await startFlow(tenant, "token_exchange"), "thirdparty", ["exchange_token"]);
    expect(start.actions.exchange_token!.inputs.token).toMatchObject({
      type: "string",
      required: true,
      hidden: true,
    });
    expect(start.actions.exchange_token!.href).toBe(
      `/token_exchange?action=exchange_token%40${flowIdOf(start)}`,
    );
    const done = await act(tenant, start, "exchange_token", { token }, { binding: bindingCookie() });
    const success = expectState(done, "success", []);
    const payload = success.payload as {
      user: { user_id: string };
      claims: { subject: string; expiration: string };
    };
    expect(payload.user.user_id).toBe(user.id);
    expect(payload.claims.subject).toBe(user.id);
    expect(Date.parse(payload.claims.expiration)).toBeGreaterThan(Date.now());
    expect(sessionCookieOf(done.res)).toBeDefined();
    const { session } = await validateSessionCookie(tenant, done.res);
    expect(session).toMatchObject({ is_valid: true, user_id: user.id });
  });

  it("refuses a used token on the input and keeps the state with a new CSRF token", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const token = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });
    const first = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    expectState(
      await act(tenant, first, "exchange_token", { token }, { binding: bindingCookie() }),
      "success",
    );

    const second = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const refused = await act(tenant, second, "exchange_token", { token }, { binding: bindingCookie() });
    const body = expectFlowError(refused, "form_data_invalid_error", 400, "thirdparty");
    expect(body.actions.exchange_token!.inputs.token!.error?.code).toBe("value_invalid_error");
    expect(sessionCookieOf(refused.res)).toBeUndefined();
    expect(body.csrf_token).not.toBe(second.csrf_token);
    expect((await flowRow(tenant, flowIdOf(second))).state).toBe("thirdparty");
  });

  it("refuses a missing token, a reused CSRF token and a wrong one without changing the flow", async () => {
    const tenant = await createPublicTenant();
    const start = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const id = flowIdOf(start);
    const missing = await act(tenant, start, "exchange_token", {});
    expect(
      expectFlowError(missing, "form_data_invalid_error", 400, "thirdparty").actions.exchange_token!.inputs
        .token!.error?.code,
    ).toBe("value_missing_error");

    const before = await flowRow(tenant, id);
    const reused = await act(tenant, start, "exchange_token", { token: "x" });
    expectFlowError(reused, "operation_not_permitted_error", 403);
    const wrong = await postHref(tenant, start.actions.exchange_token!.href, {
      input_data: { token: "x" },
      csrf_token: "nope",
    });
    expectFlowError(wrong, "operation_not_permitted_error", 403);
    expect(await flowRow(tenant, id)).toEqual(before);
  });
});
