export { loginWithPassword, type PasswordLoginInput } from "./login";
export { discardPassword, savePasswordHash, setFirstPassword } from "./set-password";
export { hashPassword } from "./hashing";
export { deletePassword, findPassword, hasPassword } from "./manage";
export {
  MAX_FAILED_ATTEMPTS,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_FLOOR,
  checkNewPassword,
  ensurePasswordsEnabled,
  minPasswordLength,
  normalizePassword,
} from "./rules";
export { hasPasswordCondition } from "./fragments";
