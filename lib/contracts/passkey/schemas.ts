import { z } from "zod";
import { WebauthnCredential } from "@/lib/wire/credentials";

/** Passkey API error body. Hanko sends strings; the spec says arrays, and the spec wins. */
export const PasskeyError = z
  .object({
    title: z.array(z.string()).meta({ example: ["The api key is invalid"] }),
    details: z
      .array(z.string())
      .meta({ example: ["Send a valid API key of this tenant in the apiKey header."] }),
    status: z.number().int().meta({ example: 401 }),
  })
  .meta({ id: "PasskeyError", description: "Error body of the Passkey API." });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad Request: invalid input, or a challenge that does not match, has expired or was used",
  401: "Unauthorized: missing or invalid API key, or an assertion that does not verify",
  404: "Not Found: unknown tenant, user or credential",
  409: "Conflict: the transaction id was already used for this user",
  413: "Request body over 64 KiB",
  415: "Body is not application/json",
  500: "Internal Server Error, also when the database does not answer",
};

export function passkeyErrors(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: ERROR_DESCRIPTIONS[status] ?? "Error",
        content: { "application/json": { schema: PasskeyError } },
      },
    ]),
  );
}

const utf8Length = (value: string) => Buffer.byteLength(value, "utf8");

/** The relying party's user id. Its UTF-8 bytes are the WebAuthn user handle, which may not exceed 64 bytes. */
export const UserId = z
  .string()
  .min(1, "is required")
  .refine((value) => utf8Length(value) <= 64, "must be at most 64 bytes (the WebAuthn user handle limit)")
  .meta({ description: "Your id for the user (at most 64 bytes of UTF-8)", example: "3f2b9d1c-user-42" });

/**
 * The registration initialize body. Kept here, not beside the contracts: every export of routes.ts is
 * taken for a contract by the OpenAPI generator.
 */
export const RegistrationInit = z.object({
  user_id: UserId,
  username: z.string().trim().min(1, "is required").max(128, "must be at most 128 characters"),
  display_name: z.string().max(128, "must be at most 128 characters").optional(),
  icon: z.url().max(255).optional().meta({ description: "URL of the user's picture" }),
});

export const CredentialIdParam = z
  .string()
  .min(1)
  .max(1364)
  .regex(/^[A-Za-z0-9_-]+$/, "must be a base64url credential id")
  .meta({ description: "The credential id (base64url)", example: "Nx1ClZkkvhNS3Vj0pyNLsQ" });

const Descriptor = z.object({
  type: z.literal("public-key"),
  id: z.string(),
  transports: z.array(z.string()).optional(),
});

export const CreationOptions = z
  .object({
    publicKey: z.object({
      rp: z.object({ name: z.string(), id: z.string() }),
      user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
      challenge: z.string(),
      pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.number().int() })),
      timeout: z.number().int(),
      excludeCredentials: z.array(Descriptor),
      authenticatorSelection: z.object({
        authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
        authenticatorAttachement: z
          .enum(["platform", "cross-platform"])
          .optional()
          .meta({ description: "The spec's spelling of `authenticatorAttachment`; both are sent" }),
        requireResidentKey: z.boolean(),
        residentKey: z.enum(["discouraged", "preferred", "required"]),
        userVerification: z.enum(["discouraged", "preferred", "required"]),
      }),
      attestation: z.enum(["none", "indirect", "direct", "enterprise"]),
      extensions: z.looseObject({ credProps: z.boolean().optional() }).optional(),
    }),
  })
  .meta({
    id: "CredentialCreationOptions",
    description: "Pass `publicKey` to `navigator.credentials.create()`.",
  });

export const RequestOptions = z
  .object({
    publicKey: z.object({
      challenge: z.string(),
      timeout: z.number().int(),
      rpId: z.string(),
      allowCredentials: z.array(Descriptor).optional(),
      userVerification: z.enum(["discouraged", "preferred", "required"]),
    }),
  })
  .meta({
    id: "CredentialRequestOptions",
    description: "Pass `publicKey` to `navigator.credentials.get()`.",
  });

export const TokenResponse = z
  .object({
    token: z.string().meta({
      description:
        "A JWT signed with the tenant's key (JWKS at `/.well-known/jwks.json`): `sub` = user_id, `aud` = [RP ID], `cred`, `iat`, `exp`, `iss`; `trans` for transactions.",
    }),
  })
  .meta({ id: "Token" });

/** The Passkey API's credential: the shared shape with the authenticator's name, `is_mfa` and the owner. */
export const CredentialDto = WebauthnCredential.omit({ last_used_at: true, mfa_only: true })
  .extend({
    authenticator_name: z
      .string()
      .nullable()
      .meta({ description: "The authenticator model, when its AAGUID is known" }),
    last_used_at: z.iso.datetime().nullable().meta({ description: "null until the first login" }),
    is_mfa: z.boolean(),
    user_id: z.string().nullable(),
  })
  .meta({ id: "Credential" });

export const TransactionDto = z
  .object({
    id: z.string().meta({ description: "Sesame's id of the transaction" }),
    identifier: z.string().meta({ description: "Your transaction_id" }),
    data: z.string().meta({ description: "The canonical JSON of transaction_data that was signed" }),
    created_at: z.string(),
    updated_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: "Transaction" });

export const Jwks = z
  .object({
    keys: z.array(z.looseObject({ kid: z.string(), kty: z.string(), alg: z.string(), use: z.string() })),
  })
  .meta({ id: "JWKS" });
