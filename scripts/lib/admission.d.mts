/** Types of admission.mjs (plain JavaScript for scripts/server.mjs). */
export function isExempt(url: string | undefined): boolean;
export function overloadAnswer(
  url: string | undefined,
  retryAfterSeconds: number,
): { status: number; headers: Record<string, string>; body: string };
export function maxInFlightProblem(text: string): string | undefined;
export const DEFAULT_MAX_IN_FLIGHT: number;
export const OVERLOAD_RETRY_AFTER_SECONDS: { min: number; max: number };
export function overloadRetryAfter(random?: () => number): number;
