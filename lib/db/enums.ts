/**
 * The closed lists of values some columns take (enum-like text columns), apart from the tables so that
 * contracts, the CLI and pages import them without importing a table (only stores import tables).
 */

export const API_KEY_SCOPES = ["authenticator", "passkey", "admin"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const FLOW_NAMES = ["login", "registration", "profile", "token_exchange"] as const;
export type FlowName = (typeof FLOW_NAMES)[number];
export const OPERATOR_ROLES = ["owner", "admin", "viewer"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export const UAF_OPERATIONS = ["REG", "AUTH", "DEREG"] as const;
export type UafRequestOperation = (typeof UAF_OPERATIONS)[number];
export const UAF_REQUEST_STATUSES = ["PENDING", "OK", "FAILED", "INVALIDATED"] as const;
export type UafRequestStatus = (typeof UAF_REQUEST_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
