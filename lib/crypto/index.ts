export { constantTimeEqual, randomToken, sha256Hex } from "./tokens";
export { deriveKey, seal, unseal } from "./secret-box";
export { getMasterSecret } from "./master-secret";
