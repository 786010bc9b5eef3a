export { loginWithPassword, type PasswordLoginInput } from "./login";
export { setFirstPassword, setPassword, type SetPasswordInput } from "./set-password";
export { deletePassword, hasPassword } from "./manage";
export { deletePasswordRow } from "./store";
export {
  MAX_FAILED_ATTEMPTS,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_FLOOR,
  ensurePasswordsEnabled,
  minPasswordLength,
} from "./rules";
export { deletePasswordOfUser, getPasswordOfUser, setPasswordOfUser } from "./admin-passwords";
// The admin user (lib/users getAdminUser) shows when the password was set.
export { findPassword } from "./store";
export { hasPasswordCondition } from "./has-password";
