export * from "./tenants";
export * from "./api-keys";
export * from "./signing-keys";
export * from "./audit-logs";
export * from "./meta";
export * from "./users";
export * from "./webauthn";
export * from "./uaf";
