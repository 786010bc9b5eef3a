import { z } from "zod";

/**
 * The WebAuthn responses a browser sends back (`PublicKeyCredential` as JSON), checked before any
 * ceremony reads them. The ceremonies own these schemas; the contracts of every surface that accepts a
 * credential (Passkey API, public API, flows) import them from here.
 */

/** base64url; padding is tolerated and removed. */
const Base64Url = z
  .string()
  .min(1)
  .max(64 * 1024)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url")
  .transform((value) => value.replace(/=+$/, ""));

const Transports = z.array(z.string().max(32)).max(16);

const ClientExtensionResults = z
  .looseObject({
    appid: z.boolean().optional(),
    appidExclude: z.boolean().optional(),
    credProps: z.looseObject({ rk: z.boolean().optional() }).optional(),
  })
  .default({});

const Attachment = z
  .enum(["platform", "cross-platform"])
  .nullable()
  .optional()
  .transform((value) => value ?? undefined)
  .meta({ description: "How the authenticator is attached (`authenticatorAttachment`)" });

/** A `PublicKeyCredential` as JSON around its authenticator `response`. */
const publicKeyCredential = <R extends z.ZodObject>(response: R) =>
  z.object({
    id: Base64Url,
    rawId: Base64Url,
    type: z.literal("public-key"),
    response,
    authenticatorAttachment: Attachment,
    clientExtensionResults: ClientExtensionResults,
  });

/** A `PublicKeyCredential` from `navigator.credentials.create()`, as JSON. */
export const RegistrationResponse = publicKeyCredential(
  z.object({
    clientDataJSON: Base64Url,
    attestationObject: Base64Url,
    transports: Transports.optional(),
  }),
).meta({ id: "RegistrationResponse", description: "The attestation credential as JSON (WebAuthn)." });

/** A `PublicKeyCredential` from `navigator.credentials.get()`, as JSON. */
export const AuthenticationResponse = publicKeyCredential(
  z.object({
    clientDataJSON: Base64Url,
    authenticatorData: Base64Url,
    signature: Base64Url,
    userHandle: z
      .union([Base64Url, z.literal("")])
      .nullable()
      .optional()
      .transform((value) => value || undefined)
      .meta({
        description: "base64url of the user handle; null or absent for non-discoverable credentials",
      }),
  }),
).meta({ id: "AuthenticationResponse", description: "The assertion credential as JSON (WebAuthn)." });
