import type { Tenant } from "./tenant";

/** Hanko's `/.well-known/config` of a tenant (v2; deprecated). */
export function publicConfig(tenant: Tenant) {
  const { password, emails, account } = tenant.platform;
  return {
    password: { enabled: password.enabled, min_password_length: password.minLength },
    emails: { require_verification: emails.requireVerification, max_num_of_addresses: emails.maxPerUser },
    providers: [] as string[],
    account: { allow_deletion: account.allowDeletion, allow_signup: account.allowSignup },
    use_enterprise: false,
  };
}
