import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Domain code names what happened (`lib/errors/codes.ts`); the generic, HTTP-like codes are for the
 * transport (`lib/http`) alone. This keeps them from coming back into the domain of `lib/`, or into
 * the routes, pages and CLI that call it.
 */
const GENERIC_THROW = [
  /\bnew\s+(BadRequest|NotFound|Unauthorized|Conflict|Forbidden)\s*\(/,
  /\bAppError\(\s*["'`](BAD_REQUEST|UNAUTHORIZED|FORBIDDEN|NOT_FOUND|CONFLICT)["'`]/,
];

const LIB = path.resolve(__dirname, "..");
const ROOT = path.resolve(LIB, "..");
const EXEMPT = ["http", "errors"].map((dir) => path.join(LIB, dir) + path.sep);
/** lib/ (but the transport and the codes), the routes and pages, the console components, the CLI. */
const SCANNED = [LIB, ...["app", "components", "cli"].map((dir) => path.join(ROOT, dir))];

function domainSources(): string[] {
  return SCANNED.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => path.join(dir, file)),
  )
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => !EXEMPT.some((dir) => file.startsWith(dir)));
}

describe("generic error codes", () => {
  it("are not thrown outside lib/http and lib/errors (lib/, app/, components/, cli/)", () => {
    const files = domainSources();
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.startsWith(path.join(ROOT, "app") + path.sep))).toBe(true);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const pattern of GENERIC_THROW) {
        const match = pattern.exec(text);
        if (match) {
          const line = text.slice(0, match.index).split("\n").length;
          found.push(`${path.relative(ROOT, file)}:${line}: ${match[0]}`);
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
