import type { AuditLogFilter } from "@/lib/audit-logs";
import { AuditLogQuery } from "@/lib/contracts/admin/audit-logs";
import { plainIssueMessage, sentence } from "@/lib/console/messages";
import { ValidationFailed } from "@/lib/errors";

/** The audit log page's filters, as they sit in the URL (a GET form) and in its inputs. */
export interface AuditFilterValues {
  /** Types or prefixes (`user.*`), separated by commas or spaces. */
  type: string;
  /** A user id, an address of a user, or another recorded actor (`operator:<id>`, `api_key:<id>`, `cli`, `system`). */
  actor: string;
  ip: string;
  /** Dates (YYYY-MM-DD, UTC), both days included. */
  from: string;
  to: string;
  q: string;
}

export const FILTER_KEYS = ["type", "actor", "ip", "from", "to", "q"] as const;

type Search = Record<string, string | string[] | undefined> | URLSearchParams;

const read = (search: Search, key: string): string => {
  const value = search instanceof URLSearchParams ? search.getAll(key) : search[key];
  return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim();
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** The admin API's query names of each field, to put the API schema's errors next to the page's fields. */
const FIELD_OF: Record<string, keyof AuditFilterValues> = {
  type: "type",
  actor_user_id: "actor",
  actor_email: "actor",
  meta_source_ip: "ip",
  start_time: "from",
  end_time: "to",
  q: "q",
};

/** What to change, in the words of the page's labels, where the API's message speaks of its own names. */
const FIELD_MESSAGES: Partial<Record<keyof AuditFilterValues, string>> = {
  ip: "Enter one IP address, such as 203.0.113.7 or 2001:db8::1.",
  actor: "Enter a user id, an email address, or a recorded actor such as operator:<id> or cli.",
};

/**
 * The filter of the page (and of its CSV export) from the URL, validated by the admin API's schema
 * (AuditLogQuery) so the page accepts what the API accepts; errors are keyed by the page's fields.
 */
export function auditFilterOf(search: Search): {
  values: AuditFilterValues;
  filter?: AuditLogFilter;
  errors: Partial<Record<keyof AuditFilterValues, string>>;
} {
  const values = Object.fromEntries(
    FILTER_KEYS.map((key) => [key, read(search, key)]),
  ) as unknown as AuditFilterValues;
  const errors: Partial<Record<keyof AuditFilterValues, string>> = {};
  if (values.from && !DATE.test(values.from)) errors.from = "Enter a date as YYYY-MM-DD, such as 2026-11-28.";
  if (values.to && !DATE.test(values.to)) errors.to = "Enter a date as YYYY-MM-DD, such as 2026-11-28.";
  if (!errors.from && !errors.to && values.from && values.to && values.to < values.from) {
    errors.to = "Pick a day on or after the “From (UTC)” day.";
  }
  const types = values.type.split(/[\s,]+/).filter(Boolean);
  const query = {
    type: types.length > 0 ? types : undefined,
    ...(values.actor.includes("@")
      ? { actor_email: values.actor }
      : { actor_user_id: values.actor || undefined }),
    meta_source_ip: values.ip || undefined,
    start_time: values.from && !errors.from ? `${values.from}T00:00:00Z` : undefined,
    end_time: values.to && !errors.to ? nextDay(values.to) : undefined,
    q: values.q || undefined,
  };
  const parsed = AuditLogQuery.safeParse(query);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF[String(issue.path[0])];
      if (field) errors[field] ??= FIELD_MESSAGES[field] ?? plainIssueMessage(issue);
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { values, errors };
  const data = parsed.data;
  return {
    values,
    errors,
    filter: {
      types,
      actorUserId: data.actor_user_id,
      actorEmail: data.actor_email,
      ip: data.meta_source_ip,
      startTime: data.start_time,
      endTime: data.end_time,
      q: data.q,
    },
  };
}

/** The domain's own refusal of a filter (`query.type: …`, `query.end_time: …`) keyed by the page's field. */
export function filterErrorsOf(error: unknown): Partial<Record<keyof AuditFilterValues, string>> | undefined {
  if (!(error instanceof ValidationFailed)) return undefined;
  const errors: Partial<Record<keyof AuditFilterValues, string>> = {};
  for (const detail of error.details) {
    const match = /^query\.([a-z_]+): (.*)$/s.exec(detail);
    const field = match ? (FIELD_OF[match[1]!] ?? "q") : "q";
    errors[field] ??=
      field === "to" ? "Pick a day on or after the “From (UTC)” day." : sentence(match ? match[2]! : detail);
  }
  return errors;
}

/** The filters as a query string (the export link and the pager keep them). */
export function filterQuery(values: AuditFilterValues): Record<string, string | undefined> {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, values[key] || undefined]));
}
