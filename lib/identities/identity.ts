export type IdentityKind = "oauth" | "saml";

/** Which provider account an identity is: the kind of provider, its id, the subject it asserts. */
export interface IdentityKey {
  kind: IdentityKind;
  providerId: string;
  subject: string;
}

export interface IdentityValues extends IdentityKey {
  userId: string;
  email: string | null;
  emailVerified: boolean;
  claims: Record<string, unknown>;
  tokensSealed: string | null;
}
