export { API_KEY_SCOPES, type ApiKeyInfo, type ApiKeyScope } from "./api-key";
export { createApiKey, CreateApiKeyInput } from "./create-api-key";
export { authenticateApiKey, type AuthenticatedKey } from "./authenticate-api-key";
export { listApiKeys } from "./list-api-keys";
export { revokeApiKey } from "./revoke-api-key";
