export { createSigningKey } from "./create-signing-key";
export { rotateSigningKey } from "./rotate-signing-key";
export { getJwks, verificationKey } from "./get-jwks";
export { signToken, type SignTokenOptions } from "./sign-token";
export { listSigningKeys, type SigningKeyInfo } from "./list-signing-keys";
export { privateSigningJwks } from "./private-jwks";
