"use server";

import { revalidatePath } from "next/cache";
import { auditConsoleAction, consoleAction } from "@/lib/console/guard";
import { UpdateTenantInput, updateTenant } from "@/lib/tenants";
import { withTenantFieldErrors } from "../tenant-field-errors";
import { sectionById, setAt, valueAt, type SectionId } from "./_settings/sections";

/**
 * Saves one settings section: only its own settings (paths of ./_settings/sections.ts) are taken from
 * the form, validated with the schema of `tenant update` (UpdateTenantInput, errors per field), written
 * by updateTenant and audited (`console.tenant.settings.updated`, with the section and what changed).
 * Owner or admin of the tenant: viewers are refused here, whatever the page showed.
 */
async function saveSection(section: SectionId, tenantId: string, form: unknown) {
  return consoleAction("write", tenantId, async (session) => {
    const patch: Record<string, unknown> = {};
    for (const field of sectionById(section).fields) {
      const value = valueAt(form, field.path);
      if (value !== undefined) setAt(patch, field.path, value);
    }
    const parsed = UpdateTenantInput.parse(patch);
    const changed = sectionById(section)
      .fields.map((field) => field.path)
      .filter((path) => {
        const next = valueAt(parsed, path);
        return next !== undefined && JSON.stringify(next) !== JSON.stringify(valueAt(session.tenant, path));
      });
    if (changed.length === 0) return { changed };
    await withTenantFieldErrors(() => updateTenant(tenantId, patch as UpdateTenantInput));
    await auditConsoleAction(session, tenantId, "tenant.settings.updated", { section, changed });
    revalidatePath(`/console/tenants/${tenantId}`, "layout");
    revalidatePath("/console/tenants");
    return { changed };
  });
}

export async function saveGeneral(tenantId: string, form: unknown) {
  return saveSection("general", tenantId, form);
}
export async function saveWebauthnPolicy(tenantId: string, form: unknown) {
  return saveSection("webauthn", tenantId, form);
}
export async function saveSignInMethods(tenantId: string, form: unknown) {
  return saveSection("methods", tenantId, form);
}
export async function saveSessions(tenantId: string, form: unknown) {
  return saveSection("sessions", tenantId, form);
}
export async function savePasscodes(tenantId: string, form: unknown) {
  return saveSection("passcodes", tenantId, form);
}
export async function saveEmail(tenantId: string, form: unknown) {
  return saveSection("email", tenantId, form);
}
export async function saveBranding(tenantId: string, form: unknown) {
  return saveSection("branding", tenantId, form);
}
export async function saveUaf(tenantId: string, form: unknown) {
  return saveSection("uaf", tenantId, form);
}
export async function saveAuditLog(tenantId: string, form: unknown) {
  return saveSection("audit", tenantId, form);
}
