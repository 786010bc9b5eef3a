import { DEFAULT_SETTINGS } from "@/lib/settings/defaults";
import { mergeSettings } from "./merge-settings";
import { SettingsSections, type SettingsPatch } from "@/lib/settings/schemas";
import { parseSettings } from "./validate-settings";

const SECTIONS = Object.keys(SettingsSections.shape) as (keyof SettingsSections)[];

/** Only the sections of a tenant (or row). */
const sectionsOf = (tenant: SettingsSections) =>
  Object.fromEntries(SECTIONS.map((key) => [key, tenant[key]])) as SettingsSections;

/** The stored sections completed with the defaults of fields added after the row was written. */
export function completeSettings(stored: SettingsSections): SettingsSections {
  return mergeSettings(DEFAULT_SETTINGS, sectionsOf(stored));
}

/**
 * The sections with the patch's sections merged in (other fields of `current` and `patch` are ignored). Each section
 * the patch touches is parsed whole again, so rules across fields (username minLength ≤ maxLength) hold
 * for the result.
 */
export function applySettingsPatch(current: SettingsSections, patch: SettingsPatch): SettingsSections {
  const merged = SECTIONS.filter((key) => patch[key] !== undefined).map((key) => [
    key,
    mergeSettings<unknown>(current[key], patch[key]),
  ]);
  return { ...sectionsOf(current), ...parseSettings(SettingsSections.partial(), Object.fromEntries(merged)) };
}
