import { expect } from "vitest";
import type { ErrorCode } from "@/lib/errors";
import { PLATFORM_STATUS } from "@/lib/http/presenters/platform-status";

/**
 * A failure record's details: they carry the error's named code (never a status); `status` is the
 * platform status that code answers, so a test can pin the failure's class where the code varies by case.
 */
export function expectFailureDetails(
  details: Record<string, unknown> | undefined,
  expected: { status: number } & Record<string, unknown>,
): void {
  const { status, ...rest } = expected;
  expect(details).toMatchObject({ ...rest, code: expect.any(String) });
  expect(details).not.toHaveProperty("status");
  expect(PLATFORM_STATUS[details!.code as ErrorCode], String(details!.code)).toBe(status);
}
