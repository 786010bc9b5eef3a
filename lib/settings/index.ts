// The tenant settings' shape: one zod schema per section, client-safe defaults, the merge-patch schema of a
// section. Infrastructure: the database schema types its jsonb columns with them; lib/tenants stores them.
export * from "./schemas";
export * from "./defaults";
export { settingsPatch } from "./settings-patch";
