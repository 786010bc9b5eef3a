import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import type { UafRegistrationRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { findUserByExternalId } from "@/lib/users";
import { deleteRegistrations, findRegistration, renameRegistration, selectRegistrations } from "./store";

/** A registered authenticator as the device management API shows it (Hanko's `Device`). */
export interface Device {
  deviceId: string;
  keyName: string;
  authenticatorType: "FIDO_UAF";
  aaid: string;
  lastUsage: Date;
  createdAt: Date;
  isSecondFactorOnly: boolean;
  deviceOs?: string;
  osVersion?: string;
  manufacturer?: string;
  model?: string;
}

export function toDevice(row: UafRegistrationRow): Device {
  const device: Device = {
    deviceId: row.id,
    keyName: row.name,
    authenticatorType: "FIDO_UAF",
    aaid: row.aaid,
    lastUsage: row.lastUsedAt ?? row.createdAt,
    createdAt: row.createdAt,
    isSecondFactorOnly: row.isSecondFactorOnly,
  };
  for (const field of ["deviceOs", "osVersion", "manufacturer", "model"] as const) {
    const value = row[field];
    if (value !== null) device[field] = value;
  }
  return device;
}

/** The user's registered authenticators, oldest first; an unknown user is a 404. */
export async function listDevices(tenant: Tenant, userId: string, context: AuditContext): Promise<Device[]> {
  return auditFailures(tenant.id, "authenticator.devices.list", context, async () => {
    const user = await findUserByExternalId(tenant.id, userId);
    if (!user) throw new AppError("USER_NOT_FOUND", "user not found");
    const devices = (await selectRegistrations(tenant.id, user.id)).map(toDevice);
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "authenticator.devices.listed",
      details: { userId, count: devices.length },
    });
    return devices;
  });
}

export async function renameDevice(
  tenant: Tenant,
  deviceId: string,
  newName: string,
  context: AuditContext,
): Promise<{ newName: string }> {
  return auditFailures(tenant.id, "authenticator.device.rename", context, async () => {
    if (!(await renameRegistration(tenant.id, deviceId, newName)))
      throw new AppError("DEVICE_NOT_FOUND", "device not found");
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "authenticator.device.renamed",
      details: { deviceId, newName },
    });
    return { newName };
  });
}

/**
 * Removes one registration of the user at once, without asking the app (which keeps a key the server
 * no longer accepts). A DEREG request also tells the app.
 */
export async function deleteDevice(
  tenant: Tenant,
  userId: string,
  deviceId: string,
  context: AuditContext,
): Promise<void> {
  return auditFailures(tenant.id, "authenticator.device.delete", context, async () => {
    const user = await findUserByExternalId(tenant.id, userId);
    const registration = user ? await findRegistration(tenant.id, deviceId) : undefined;
    if (!user || !registration || registration.userId !== user.id)
      throw new AppError("DEVICE_NOT_FOUND", "device not found");
    await deleteRegistrations(tenant.id, user.id, [deviceId]);
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "authenticator.device.deleted",
      details: { userId, deviceId },
    });
  });
}
