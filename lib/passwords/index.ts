export { loginWithPassword, type PasswordLoginInput } from "./login";
export { setPassword, type SetPasswordInput } from "./set-password";
export {
  MAX_FAILED_ATTEMPTS,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_FLOOR,
  ensurePasswordsEnabled,
  minPasswordLength,
} from "./rules";
