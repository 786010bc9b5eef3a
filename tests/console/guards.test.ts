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

/** Top-level functions of a module: name, source text and whether exported. */
function topLevelFunctions(file: string): { name: string; text: string; exported: boolean }[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const found: { name: string; text: string; exported: boolean }[] = [];
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    const exported = modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      found.push({ name: statement.name.text, text: statement.getText(source), exported });
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) {
          found.push({ name: declaration.name.text, text: declaration.getText(source), exported });
        }
      }
    }
  }
  return found;
}

/**
 * The exported functions of a server-action module that reach no `consoleAction(`: directly, or through a
 * function of the same module that calls it (one shared `saveSection` behind several forms).
 */
function unguardedActions(file: string): string[] {
  const functions = topLevelFunctions(file);
  const guarded = functions.filter((f) => /\bconsoleAction\(/.test(f.text)).map((f) => f.name);
  const reaches = (text: string) => guarded.some((name) => text.includes(`${name}(`));
  return functions.filter((f) => f.exported && !reaches(f.text)).map((f) => f.name);
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
      for (const name of unguardedActions(file)) {
        if (relative(file) === "public-actions.ts" && PUBLIC_ACTIONS.has(name)) continue;
        unguarded.push(`${relative(file)}: ${name}`);
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
