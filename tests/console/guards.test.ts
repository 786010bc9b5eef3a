import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The console's roles are enforced on the server, in every page loader and server action: this test
 * reads the console's sources and fails when one does not go through the guard (lib/console/guard.ts).
 * The e2e tests then show that the guard refuses (e2e/process/console-*.spec.ts).
 */
const CONSOLE = path.resolve("app/(console)/console");

/** The only actions a signed-out browser may call: passkey sign-in options and enrolment by link. */
const PUBLIC_ACTIONS = new Set(["signInOptions", "enrolmentInfo", "enrolmentOptions", "completeEnrolment"]);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

const sources = files(CONSOLE).filter((file) => /\.tsx?$/.test(file));
const read = (file: string) => fs.readFileSync(file, "utf8");
const relative = (file: string) => path.relative(CONSOLE, file);

/** Exported functions of a module: name and source text. */
function exportedFunctions(file: string): { name: string; text: string }[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const found: { name: string; text: string }[] = [];
  for (const statement of source.statements) {
    const exported = ts
      .getModifiers(statement as ts.HasModifiers)
      ?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      found.push({ name: statement.name.text, text: statement.getText(source) });
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) {
          found.push({ name: declaration.name.text, text: declaration.getText(source) });
        }
      }
    }
  }
  return found;
}

describe("console guards", () => {
  const serverActionModules = sources.filter((file) => /^\s*["']use server["']/.test(read(file)));

  it("finds the console's server actions and pages", () => {
    expect(serverActionModules.length).toBeGreaterThan(0);
    expect(sources.some((file) => file.endsWith("page.tsx"))).toBe(true);
  });

  it("runs every server action through consoleAction (or is one of the few public ones)", () => {
    const unguarded: string[] = [];
    for (const file of serverActionModules) {
      for (const { name, text } of exportedFunctions(file)) {
        if (relative(file) === "public-actions.ts" && PUBLIC_ACTIONS.has(name)) continue;
        if (!/\bconsoleAction\(/.test(text)) unguarded.push(`${relative(file)}: ${name}`);
      }
    }
    expect(unguarded).toEqual([]);
  });

  it("checks the session in every signed-in page loader", () => {
    const pages = sources.filter(
      (file) => file.includes(`${path.sep}(signed-in)${path.sep}`) && /page\.tsx$/.test(file),
    );
    expect(pages.length).toBeGreaterThan(0);
    const unguarded = pages.filter((file) => !/\brequire(Operator|Tenant)\(/.test(read(file))).map(relative);
    expect(unguarded).toEqual([]);
  });

  it("checks the session in every console route handler but next-auth's", () => {
    const routes = sources.filter(
      (file) => /route\.ts$/.test(file) && !file.includes(`${path.sep}api${path.sep}auth${path.sep}`),
    );
    const unguarded = routes.filter((file) => !/\bcurrentOperator\(/.test(read(file))).map(relative);
    expect(unguarded).toEqual([]);
  });
});
