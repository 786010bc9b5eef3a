export { loginWithPassword, type PasswordLoginInput } from "./login";
export { discardPassword, savePasswordHash, setFirstPassword } from "./set-password";
export { hashPassword } from "./hashing";
export { deletePassword, hasPassword } from "./manage";
export {
  MAX_FAILED_ATTEMPTS,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_FLOOR,
  checkNewPassword,
  ensurePasswordsEnabled,
  minPasswordLength,
  normalizePassword,
} from "./rules";
// The admin user (lib/users getAdminUser) shows when the password was set.
export { findPassword } from "./store";
export { hasPasswordCondition } from "./has-password";
