export { createTenant } from "./create-tenant";
export { ensureSystemTenant } from "./system-tenant";
export { findTenant, getTenant } from "./get-tenant";
export { listTenants } from "./list-tenants";
export { updateTenant } from "./update-tenant";
export {
  BrandingSettings,
  CreateTenantInput,
  HexColor,
  LogoUrl,
  Origin,
  PlatformSettings,
  RpId,
  TenantSettings,
  UpdateTenantInput,
  WebauthnPolicy,
} from "@/lib/settings/schemas";
export { UUID_PATTERN, type Tenant } from "./tenant";
export { getJwks, rotateSigningKey, signToken, verificationKey, type SignTokenOptions } from "./signing-keys";
export { listSigningKeys, type SigningKeyInfo } from "./signing-keys";
export { privateSigningJwks } from "./signing-keys";
