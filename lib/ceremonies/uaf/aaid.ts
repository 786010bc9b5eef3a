import { z } from "zod";

/**
 * An AAID (fido-uaf-protocol-v1.1 §3.1.4): `V#M`, vendor and model as four hex digits each, e.g.
 * `FFFF#5E5A`. Compared case-insensitively: the registry writes it in upper case.
 */
export const AAID_PATTERN = /^[0-9A-F]{4}#[0-9A-F]{4}$/i;

/** The one AAID schema: UAF messages, the software authenticator's state and tenant settings use it. */
export const aaidSchema = z.string().regex(AAID_PATTERN, "must be an AAID (VVVV#MMMM in hex)");
