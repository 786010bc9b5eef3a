import { z } from "zod";
import {
  ATTACHMENT,
  ATTESTATION,
  RESIDENT_KEY,
  SIGNING_ALGORITHMS,
  USER_VERIFICATION,
} from "@/lib/db/schema";

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export const RpId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(HOSTNAME, "must be a host name without scheme or port, such as example.com or localhost");

/** An exact web origin: scheme, host and optional port, nothing else. */
export const Origin = z
  .url({ protocol: /^https?$/, error: "must be an http(s) origin such as https://example.com" })
  .refine((value) => new URL(value).origin === value.replace(/\/$/, ""), {
    error: "must be an origin only (scheme://host[:port]), without path, query or fragment",
  })
  .transform((value) => new URL(value).origin);

const seconds = (min: number, max: number) =>
  z.number().int().min(min, `must be at least ${min} seconds`).max(max, `must be at most ${max} seconds`);

export const WebauthnPolicy = z.object({
  userVerification: z.enum(USER_VERIFICATION),
  attestation: z.enum(ATTESTATION),
  residentKey: z.enum(RESIDENT_KEY),
  attachment: z.enum(ATTACHMENT).nullable(),
});

/** Settings a tenant may change; bounds mirror the CHECK constraints in lib/db/schema/tenants.ts. */
export const TenantSettings = z.object({
  name: z.string().trim().min(1).max(100),
  rpId: RpId,
  rpName: z.string().trim().min(1).max(100),
  origins: z.array(Origin).max(50),
  challengeTtlSeconds: seconds(10, 3600),
  requestTtlSeconds: seconds(10, 600),
  sessionLifetimeSeconds: seconds(60, 31_536_000),
  passcodeTtlSeconds: seconds(60, 600),
  tokenLifetimeSeconds: seconds(10, 86_400),
  signingAlgorithm: z.enum(SIGNING_ALGORITHMS),
  passkeyPolicy: WebauthnPolicy,
  mfaPolicy: WebauthnPolicy,
});

/** Policies are merged field by field into the current (or default) policy. */
const PolicyPatches = {
  passkeyPolicy: WebauthnPolicy.partial().optional(),
  mfaPolicy: WebauthnPolicy.partial().optional(),
};

export const CreateTenantInput = TenantSettings.partial().extend(PolicyPatches).required({ name: true });
export type CreateTenantInput = z.input<typeof CreateTenantInput>;

export const UpdateTenantInput = TenantSettings.partial().extend(PolicyPatches);
export type UpdateTenantInput = z.input<typeof UpdateTenantInput>;
