import { RateLimiterRes } from "rate-limiter-flexible";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import type { Tenant } from "@/lib/tenants";
import { limitFor } from "./groups";
import { limiterFor, limiterStore } from "./limiters";
import { ipSubject, userSubject } from "./subjects";

export type SubjectKind = "ip" | "user";

/** What one request's consumption left: the numbers behind the X-RateLimit-* and Retry-After headers. */
export interface RateLimitOutcome {
  group: string;
  /** Requests allowed per window, per IP and per user. */
  limit: number;
  windowSeconds: number;
  /** Requests left in the window of the most used subject. */
  remaining: number;
  /** Seconds until that window ends. */
  resetSeconds: number;
  /** Subjects over the limit (empty when the request may pass). */
  exceeded: SubjectKind[];
  /** When refused: seconds until every exceeded subject's window has ended. */
  retryAfterSeconds?: number;
}

/** 429 in the surface's error shape; route() adds Retry-After and the X-RateLimit-* headers. */
export class RateLimited extends AppError {
  readonly outcome: RateLimitOutcome;

  constructor(outcome: RateLimitOutcome) {
    super("RATE_LIMITED");
    this.outcome = outcome;
  }
}

export interface RateLimitRequest {
  ip: string | null;
  /** The session's user on session-authenticated routes. */
  sessionUserId?: string | undefined;
  /** The validated body, searched for an account identifier (see userSubject). */
  body?: unknown;
  audit: AuditContext;
}

const seconds = (ms: number, fallback: number) => (ms < 0 ? fallback : Math.max(1, Math.ceil(ms / 1000)));

/**
 * Counts one request of `group` against the tenant's limit, per IP and per user, and throws
 * RateLimited when either is over it. Undefined when the group has no limit. A store failure is
 * thrown as it is (the request fails with 500: closed, never open).
 */
export async function consumeRateLimit(
  tenant: Tenant,
  group: string,
  request: RateLimitRequest,
): Promise<RateLimitOutcome | undefined> {
  const limit = limitFor(tenant, group);
  if (!limit) return undefined;
  const limiter = limiterFor(await limiterStore(), limit);
  const subjects: [SubjectKind, string][] = [["ip", ipSubject(request.ip)]];
  const user = userSubject(request.sessionUserId, request.body);
  if (user) subjects.push(["user", user]);

  const settled = await Promise.allSettled(
    subjects.map(([kind, subject]) => limiter.consume(`${tenant.id}:${group}:${kind}:${subject}`)),
  );
  const results: { kind: SubjectKind; res: RateLimiterRes; refused: boolean }[] = [];
  for (const [i, outcome] of settled.entries()) {
    const kind = subjects[i]![0];
    if (outcome.status === "fulfilled") results.push({ kind, res: outcome.value, refused: false });
    else if (outcome.reason instanceof RateLimiterRes)
      results.push({ kind, res: outcome.reason, refused: true });
    else throw outcome.reason;
  }

  const window = limit.durationSeconds;
  const tightest = results.reduce((a, b) =>
    b.res.remainingPoints < a.res.remainingPoints ||
    (b.res.remainingPoints === a.res.remainingPoints && b.res.msBeforeNext > a.res.msBeforeNext)
      ? b
      : a,
  );
  const refused = results.filter((result) => result.refused);
  const outcome: RateLimitOutcome = {
    group,
    limit: limit.points,
    windowSeconds: window,
    remaining: tightest.res.remainingPoints,
    resetSeconds: seconds(tightest.res.msBeforeNext, window),
    exceeded: refused.map((result) => result.kind),
  };
  if (refused.length === 0) return outcome;

  outcome.retryAfterSeconds = Math.max(...refused.map((result) => seconds(result.res.msBeforeNext, window)));
  // Once per subject and window: the request that first went over the limit.
  const first = refused.filter((result) => result.res.consumedPoints === limit.points + 1);
  if (first.length > 0) {
    getLogger().info(
      { requestId: request.audit.requestId, tenantId: tenant.id, group, subjects: first.map((r) => r.kind) },
      "rate limit exceeded",
    );
    await recordAuditEvent(tenant.id, {
      ...request.audit,
      type: "rate_limit.exceeded",
      details: { group, subjects: first.map((result) => result.kind), limit: limit.points, window },
    });
  }
  throw new RateLimited(outcome);
}

/** Sets X-RateLimit-Limit, -Remaining, -Reset (seconds) and, on a refusal, Retry-After (seconds). */
export function applyRateLimitHeaders(response: Response, outcome: RateLimitOutcome): void {
  response.headers.set("x-ratelimit-limit", String(outcome.limit));
  response.headers.set("x-ratelimit-remaining", String(outcome.remaining));
  response.headers.set("x-ratelimit-reset", String(outcome.resetSeconds));
  if (outcome.retryAfterSeconds !== undefined) {
    response.headers.set("retry-after", String(outcome.retryAfterSeconds));
  }
}
