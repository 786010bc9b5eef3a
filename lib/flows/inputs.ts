import type { InputSpec } from "./definition";
import type { FlowErrorCode } from "./errors";

export interface InputError {
  code: FlowErrorCode;
  message: string;
}

// The WHATWG `type=email` pattern: what the browser's own form validation accepts.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** Bounds for inputs that declare none, so no client can hand the domain an unbounded string. */
const DEFAULT_MAX_LENGTH = 1024;
export const MAX_EMAIL_LENGTH = 254;
const MAX_JSON_LENGTH = 64 * 1024;

const problem = (code: FlowErrorCode, message: string): InputError => ({ code, message });

function checkOne(spec: InputSpec, raw: unknown): { value?: unknown; error?: InputError } {
  if (raw === null && spec.type === "json" && spec.nullable) return { value: null };
  const missing =
    raw === undefined ||
    raw === null ||
    (typeof raw === "string" && raw.trim() === "" && spec.type !== "password");
  if (missing) {
    return spec.required ? { error: problem("value_missing_error", "Missing value") } : {};
  }
  switch (spec.type) {
    case "boolean":
      if (typeof raw !== "boolean") return { error: problem("value_invalid_error", "Must be true or false") };
      return { value: raw };
    case "number":
      if (typeof raw !== "number" || !Number.isFinite(raw))
        return { error: problem("value_invalid_error", "Must be a number") };
      return { value: raw };
    case "json": {
      if (typeof raw !== "object") return { error: problem("value_invalid_error", "Must be a JSON object") };
      if (JSON.stringify(raw).length > MAX_JSON_LENGTH)
        return { error: problem("value_too_long_error", "Value is too long") };
      return { value: raw };
    }
    default: {
      if (typeof raw !== "string") return { error: problem("value_invalid_error", "Must be a string") };
      // Passwords are taken as typed; everything else without surrounding blanks.
      const value = spec.type === "password" ? raw : raw.trim();
      const length = [...value].length;
      const max = spec.maxLength ?? (spec.type === "email" ? MAX_EMAIL_LENGTH : DEFAULT_MAX_LENGTH);
      if (length > max) return { error: problem("value_too_long_error", `At most ${max} characters`) };
      if (spec.minLength !== undefined && length < spec.minLength)
        return { error: problem("value_too_short_error", `At least ${spec.minLength} characters`) };
      if (spec.type === "email" && !EMAIL.test(value))
        return { error: problem("value_invalid_error", "Not an email address") };
      if (spec.allowedValues && !spec.allowedValues.some((allowed) => allowed.value === value))
        return { error: problem("value_invalid_error", "Not one of the allowed values") };
      return { value: spec.type === "email" ? value.toLowerCase() : value };
    }
  }
}

/**
 * Checks `input_data` against an action's inputs: the clean values by name, or an error per input.
 * Values for names the action does not declare are ignored (the client sends every default back).
 */
export function validateInputs(
  specs: readonly InputSpec[],
  data: Record<string, unknown>,
): { values: Record<string, unknown>; errors: Record<string, InputError> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, InputError> = {};
  for (const spec of specs) {
    const { value, error } = checkOne(spec, Object.hasOwn(data, spec.name) ? data[spec.name] : undefined);
    if (error) errors[spec.name] = error;
    else if (value !== undefined) values[spec.name] = value;
  }
  return { values, errors };
}
