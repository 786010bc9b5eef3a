import "server-only";
import { getServerSession } from "next-auth";
import { cache } from "react";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { requestContext } from "@/lib/request/context";
import { checkOperatorSession, operatorActor, type Operator } from "@/lib/operators";
import { decideAccess, type ConsoleAccess } from "./access";
import { plainIssueMessage, sentence } from "./messages";
import { CONSOLE_PATH_HEADER, signInPath } from "./return-path";

export type { ConsoleAccess } from "./access";
import { getTenant, UUID_PATTERN, type Tenant } from "@/lib/tenants";
import { consoleAuthOptions } from "./auth";

/** The signed-in operator of this request, with the audit context of the request (actor: the operator). */
export interface ConsoleSession {
  operator: Operator;
  sessionId: string;
  /** When this console session signed in (adding a passkey wants a recent one). */
  signedInAt: Date;
  /** `actor` is `operator:<id>`: pass it to domain functions so their audit entries name the operator. */
  context: AuditContext;
}

/**
 * The live console session of this request, or undefined (no cookie, revoked, idle or too old). Read
 * once per request: the layouts and the page of one render share it (React `cache`).
 */
export const currentOperator = cache(async (): Promise<ConsoleSession | undefined> => {
  const session = await getServerSession(consoleAuthOptions());
  if (!session?.sid) return undefined;
  const live = await checkOperatorSession(session.sid);
  if (!live) return undefined;
  const context = requestContext({ headers: await headers() });
  return { ...live, context: { ...context, actor: operatorActor(live.operator) } };
});

/**
 * For page loaders: the signed-in operator with at least `access`, else a redirect to the sign-in page
 * (not signed in) or the not-found page (a role that may not see it: its existence is not revealed).
 */
export async function requireOperator(access: ConsoleAccess = "read"): Promise<ConsoleSession> {
  const session = await currentOperator();
  if (!session) redirect(signInPath((await headers()).get(CONSOLE_PATH_HEADER)));
  if (decideAccess(session.operator, access) !== "ok") notFound();
  return session;
}

/**
 * For page loaders: the operator and a tenant they may see with `access`; another tenant is a 404,
 * exactly like one that does not exist.
 */
export async function requireTenant(
  tenantId: string,
  access: ConsoleAccess = "read",
): Promise<ConsoleSession & { tenant: Tenant }> {
  const session = await requireOperator(access);
  if (decideAccess(session.operator, "read", tenantId) !== "ok") notFound();
  const tenant = await getTenant(tenantId).catch(() => undefined);
  if (!tenant) notFound();
  return { ...session, tenant };
}

/** A console action's answer: data, or an error with messages per field for the form. */
export type ActionResult<T = undefined> =
  { ok: true; data: T } | { ok: false; error: string; code?: string; fieldErrors?: Record<string, string> };

/**
 * Runs a server action for the signed-in operator with `access` (and, with `tenantId`, a tenant they
 * may see). Signed out, a wrong role or another tenant: refused on the server, whatever the page
 * showed. Errors become `{ ok: false }` with zod issues per field; unexpected ones are logged by Next.
 */
export async function consoleAction<T>(
  access: ConsoleAccess,
  tenantId: string | undefined,
  work: (session: ConsoleSession & { tenant: Tenant | undefined }) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    const session = await currentOperator();
    if (!session) {
      throw new AppError("CONSOLE_SESSION_ENDED", "your console session has ended; sign in again");
    }
    // Actions receive whatever a client sends: the tenant id must be a UUID string.
    if (tenantId !== undefined && (typeof tenantId !== "string" || !UUID_PATTERN.test(tenantId))) {
      throw new AppError("TENANT_NOT_FOUND", "tenant not found");
    }
    const decision = decideAccess(session.operator, access, tenantId);
    if (decision === "not_found") throw new AppError("TENANT_NOT_FOUND", "tenant not found");
    if (decision === "forbidden") {
      throw new AppError("CONSOLE_ROLE_INSUFFICIENT", "your role does not allow this");
    }
    const tenant = tenantId === undefined ? undefined : await getTenant(tenantId);
    return { ok: true, data: await work({ ...session, tenant }) };
  } catch (error) {
    return actionError(error);
  }
}

/** Maps an error to an ActionResult: AppError and zod errors carry their message (and fields). */
export function actionError(error: unknown): {
  ok: false;
  error: string;
  code?: string;
  fieldErrors?: Record<string, string>;
} {
  if (error instanceof AppError) {
    // The details say what to change; the HTTP-ish summary ("Bad Request") is for the APIs, not a person.
    const text = error.details.length > 0 ? error.details.join("; ") : error.message;
    return { ok: false, error: sentence(text), code: error.code };
  }
  if (isZodError(error)) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.issues) {
      const key = issue.path.join(".") || "_";
      fieldErrors[key] ??= plainIssueMessage(issue);
    }
    return {
      ok: false,
      error: "Please correct the highlighted fields.",
      code: "VALIDATION_FAILED",
      fieldErrors,
    };
  }
  throw error;
}

function isZodError(
  error: unknown,
): error is { issues: (Parameters<typeof plainIssueMessage>[0] & { path: PropertyKey[] })[] } {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: string }).name === "ZodError" &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/**
 * A console action in the tenant's audit log, with the operator as actor: `console.<type>`. Domain
 * functions that audit on their own get `session.context` instead, whose actor is the operator.
 */
export async function auditConsoleAction(
  session: ConsoleSession,
  tenantId: string,
  type: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordAuditEvent(tenantId, {
    ...session.context,
    type: `console.${type}`,
    details: { ...details, operator_email: session.operator.email },
  });
}
