import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as meRoute from "@/app/(public-api)/t/[tenantId]/me/route";
import { listAuditEvents } from "@/lib/audit";
import type { FlowResponse } from "@/lib/flows";
import { patchMetadata, readUserMetadata } from "@/lib/metadata";
import type { Tenant } from "@/lib/tenants";
import { createAdminUser } from "@/lib/accounts";
import { act, expectFlowError, expectState, startFlow } from "../helpers/flows";
import { TEST_CONTEXT, createPublicTenant, publicCall, sessionFor } from "../helpers/public-api";

async function signedIn(tenant: Tenant) {
  const { user } = await createAdminUser(
    tenant,
    { emails: [{ address: `${randomUUID()}@example.com`, isPrimary: true, isVerified: true }] },
    TEST_CONTEXT,
  );
  return { user, token: await sessionFor(tenant, user) };
}

async function openProfile(tenant: Tenant, token: string): Promise<FlowResponse> {
  const start = expectState(await startFlow(tenant, "profile", { token }), "preflight");
  return expectState(
    await act(tenant, start, "register_client_capabilities", { webauthn_available: true }, { token }),
    "profile_init",
  );
}

const shownMetadata = (state: FlowResponse) =>
  (state.payload as { user: { metadata?: unknown } }).user.metadata;

describe("profile flow: patch_metadata", () => {
  it("is offered on profile_init with Hanko's required json input", async () => {
    const tenant = await createPublicTenant();
    const { token } = await signedIn(tenant);
    const state = await openProfile(tenant, token);
    expect(state.actions.patch_metadata).toMatchObject({
      action: "patch_metadata",
      inputs: { patch_metadata: { name: "patch_metadata", type: "json", required: true } },
    });
    expect(shownMetadata(state)).toBeUndefined();
  });

  it("merges into unsafe metadata only, shows public and unsafe in the payload, never private", async () => {
    const tenant = await createPublicTenant();
    const { user, token } = await signedIn(tenant);
    await patchMetadata(
      tenant,
      user.id,
      {
        public_metadata: { role: "member" },
        private_metadata: { secret: 1 },
        unsafe_metadata: { a: { b: 1 } },
      },
      TEST_CONTEXT,
    );
    let state = await openProfile(tenant, token);
    expect(shownMetadata(state)).toEqual({
      public_metadata: { role: "member" },
      unsafe_metadata: { a: { b: 1 } },
    });

    state = expectState(
      await act(
        tenant,
        state,
        "patch_metadata",
        // Keys named like the other kinds are just keys of the unsafe object.
        { patch_metadata: { a: { b: null, c: 2 }, public_metadata: { role: "owner" }, list: [1, 2] } },
        { token },
      ),
      "profile_init",
    );
    const expected = {
      public_metadata: { role: "member" },
      private_metadata: { secret: 1 },
      unsafe_metadata: { a: { c: 2 }, public_metadata: { role: "owner" }, list: [1, 2] },
    };
    expect(await readUserMetadata(tenant.id, user.id)).toEqual(expected);
    expect(shownMetadata(state)).toEqual({
      public_metadata: expected.public_metadata,
      unsafe_metadata: expected.unsafe_metadata,
    });
    const audit = await listAuditEvents(tenant.id, { type: "user.metadata.updated", limit: 5 });
    expect(audit.items[0]).toMatchObject({ actor: user.id, details: { userId: user.id, source: "profile" } });

    // An empty patch changes nothing; removing every key removes unsafe metadata.
    state = expectState(
      await act(tenant, state, "patch_metadata", { patch_metadata: {} }, { token }),
      "profile_init",
    );
    state = expectState(
      await act(
        tenant,
        state,
        "patch_metadata",
        { patch_metadata: { a: null, public_metadata: null, list: null } },
        { token },
      ),
      "profile_init",
    );
    expect(await readUserMetadata(tenant.id, user.id)).toEqual({
      public_metadata: expected.public_metadata,
      private_metadata: expected.private_metadata,
    });
    expect(shownMetadata(state)).toEqual({ public_metadata: expected.public_metadata });
  });

  it("refuses what is not an object (invalid_metadata_error) or over 3000 characters, and keeps the data", async () => {
    const tenant = await createPublicTenant();
    const { user, token } = await signedIn(tenant);
    await patchMetadata(tenant, user.id, { unsafe_metadata: { kept: true } }, TEST_CONTEXT);
    let state = await openProfile(tenant, token);
    for (const value of [[1, 2], { big: "x".repeat(3000) }]) {
      const body = expectFlowError(
        await act(tenant, state, "patch_metadata", { patch_metadata: value }, { token }),
        "form_data_invalid_error",
        400,
        "profile_init",
      );
      expect(body.actions.patch_metadata?.inputs.patch_metadata?.error?.code).toBe("invalid_metadata_error");
      state = body;
    }
    // Scalars are refused by the engine's json input check; a missing value is value_missing_error.
    for (const [value, code] of [
      ["text", "value_invalid_error"],
      [7, "value_invalid_error"],
      [undefined, "value_missing_error"],
    ] as const) {
      const body = expectFlowError(
        await act(tenant, state, "patch_metadata", value === undefined ? {} : { patch_metadata: value }, {
          token,
        }),
        "form_data_invalid_error",
        400,
        "profile_init",
      );
      expect(body.actions.patch_metadata?.inputs.patch_metadata?.error?.code).toBe(code);
      state = body;
    }
    expect(await readUserMetadata(tenant.id, user.id)).toEqual({ unsafe_metadata: { kept: true } });
  });

  it("clears the unsafe metadata with null, as Hanko does, and leaves the public and private metadata", async () => {
    const tenant = await createPublicTenant();
    const { user, token } = await signedIn(tenant);
    const all = { public_metadata: { p: 1 }, private_metadata: { q: 2 }, unsafe_metadata: { u: 3 } };
    await patchMetadata(tenant, user.id, all, TEST_CONTEXT);
    const state = await openProfile(tenant, token);
    const { res, body } = await act(tenant, state, "patch_metadata", { patch_metadata: null }, { token });
    expect(res.status).toBe(200);
    expect(body.name).toBe("profile_init");
    expect(await readUserMetadata(tenant.id, user.id)).toEqual({
      public_metadata: { p: 1 },
      private_metadata: { q: 2 },
    });
  });
});

describe("GET /me: metadata and profile claims", () => {
  it("shows public and unsafe metadata, never private", async () => {
    const tenant = await createPublicTenant();
    const { user, token } = await signedIn(tenant);
    const plain = (await (await publicCall(meRoute.GET, tenant, "GET", "/me", { token })).json()) as Record<
      string,
      unknown
    >;
    expect(plain.metadata).toBeUndefined();

    await patchMetadata(tenant, user.id, { private_metadata: { secret: 1 } }, TEST_CONTEXT);
    const onlyPrivate = (await (
      await publicCall(meRoute.GET, tenant, "GET", "/me", { token })
    ).json()) as Record<string, unknown>;
    expect(onlyPrivate.metadata).toBeUndefined();

    await patchMetadata(
      tenant,
      user.id,
      { public_metadata: { tier: "gold" }, unsafe_metadata: { x: 1 } },
      TEST_CONTEXT,
    );
    const res = await publicCall(meRoute.GET, tenant, "GET", "/me", { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.metadata).toEqual({ public_metadata: { tier: "gold" }, unsafe_metadata: { x: 1 } });
    expect(JSON.stringify(body)).not.toContain("secret");
  });
});
