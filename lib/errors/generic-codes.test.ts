import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Domain code names what happened (`lib/errors/codes.ts`); the generic, HTTP-like codes are for the
 * transport (`lib/http`) alone. This keeps them from coming back into the domain of `lib/`.
 */
const GENERIC_THROW = [
  /\bnew\s+(BadRequest|NotFound|Unauthorized|Conflict|Forbidden)\s*\(/,
  /\bAppError\(\s*["'`](BAD_REQUEST|UNAUTHORIZED|FORBIDDEN|NOT_FOUND|CONFLICT)["'`]/,
];

const LIB = path.resolve(__dirname, "..");
const EXEMPT = ["http", "errors"].map((dir) => path.join(LIB, dir) + path.sep);

function domainSources(): string[] {
  return readdirSync(LIB, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(LIB, file))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => !EXEMPT.some((dir) => file.startsWith(dir)));
}

describe("generic error codes", () => {
  it("are not thrown in lib/ outside lib/http and lib/errors", () => {
    const files = domainSources();
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const pattern of GENERIC_THROW) {
        const match = pattern.exec(text);
        if (match) {
          const line = text.slice(0, match.index).split("\n").length;
          found.push(`${path.relative(LIB, file)}:${line}: ${match[0]}`);
        }
      }
    }
    expect(found, "throw a named code of lib/errors/codes.ts instead").toEqual([]);
  });

  it("the check finds a generic throw", () => {
    const samples = [
      'throw new NotFound("x")',
      'throw new AppError("CONFLICT", undefined)',
      'new AppError(\n      "FORBIDDEN",\n      "no")',
    ];
    for (const sample of samples) expect(GENERIC_THROW.some((pattern) => pattern.test(sample))).toBe(true);
    expect(GENERIC_THROW.some((pattern) => pattern.test('new AppError("TENANT_NOT_FOUND")'))).toBe(false);
  });
});
