/**
 * Generates `elements/sesame-elements.d.ts`, the one-file declarations of the elements bundle, from
 * elements/src: tsc emits declarations for every module the entry reaches; they are joined into one file
 * (imports between them dropped, `export` kept only for what the entry exports) and formatted with Prettier.
 * `npm run build` writes them beside the bundle; `npm test` (type-check step) fails when the committed copy
 * differs, so the declarations cannot drift from the source.
 */
import fs from "node:fs";
import path from "node:path";
import { format, resolveConfig } from "prettier";
import ts from "typescript";

export const ELEMENTS_ENTRY = path.join("elements", "src", "index.ts");
export const ELEMENTS_DECLARATIONS = path.join("elements", "sesame-elements.d.ts");

const HEADER = `/**
 * Type declarations of Sesame's elements bundle (\`/elements/v1/sesame-elements.js\`). Copy this file next
 * to your code (or reference it) to get typed \`register()\`, events and elements, in plain TypeScript and
 * in React 19 (which reads intrinsic elements from \`React.JSX\`, not from a global \`JSX\`).
 *
 * Generated from elements/src by scripts/elements-declarations.ts: do not edit.
 */
/* eslint-disable @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- generated */
`;

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.dom.d.ts", "lib.dom.iterable.d.ts", "lib.es2023.d.ts"],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  declaration: true,
  emitDeclarationOnly: true,
};

const isRelative = (specifier: ts.Expression) =>
  ts.isStringLiteral(specifier) && specifier.text.startsWith(".");

/** The entry's exports as `export { … }` and `export type { … }` lines, with `as` where renamed. */
function exportLines(program: ts.Program, entry: ts.SourceFile): { text: string; locals: Set<string> } {
  const checker = program.getTypeChecker();
  const values: string[] = [];
  const types: string[] = [];
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!)) {
    const local = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const specifier = exported.declarations?.find(ts.isExportSpecifier);
    const typeOnly = specifier ? specifier.isTypeOnly || specifier.parent.parent.isTypeOnly : false;
    const name = local.name === exported.name ? local.name : `${local.name} as ${exported.name}`;
    (!typeOnly && local.flags & ts.SymbolFlags.Value ? values : types).push(name);
  }
  const sorted = (names: string[]) => names.sort((a, b) => a.localeCompare(b)).join(", ");
  return {
    text: `export { ${sorted(values)} };\nexport type { ${sorted(types)} };\n`,
    locals: new Set([...values, ...types].map((name) => name.split(" as ")[0]!)),
  };
}

interface Part {
  /** The declared name (none for `declare global` and module augmentations). */
  name?: string;
  text: string;
}

function declaredName(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [declaration] = statement.declarationList.declarations;
    return declaration && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  }
  if (ts.isModuleDeclaration(statement)) return undefined;
  const name = (statement as ts.DeclarationStatement).name;
  return name && ts.isIdentifier(name) ? name.text : undefined;
}

/** Drops declarations that nothing exported reaches (internal helpers such as `dispatch`). */
function reachable(parts: Part[], exported: Set<string>): Part[] {
  let kept = parts;
  for (;;) {
    const next = kept.filter(
      (part) =>
        part.name === undefined ||
        exported.has(part.name) ||
        kept.some((other) => other !== part && new RegExp(`\\b${part.name}\\b`).test(other.text)),
    );
    if (next.length === kept.length) return kept;
    kept = next;
  }
}

/** One module's declarations without imports and re-exports between modules, and without `export`. */
function body(file: ts.SourceFile, externalImports: Set<string>): Part[] {
  const parts: Part[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!isRelative(statement.moduleSpecifier)) externalImports.add(statement.getText(file));
      continue;
    }
    if (ts.isExportDeclaration(statement)) continue;
    const text = statement.getFullText(file);
    const keyword = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : undefined;
    const name = declaredName(statement);
    if (!keyword) {
      parts.push({ name, text });
      continue;
    }
    const offset = statement.getFullStart();
    const after = text.slice(keyword.end - offset).replace(/^\s+/, "");
    parts.push({ name, text: text.slice(0, keyword.getStart(file) - offset) + after });
  }
  return parts;
}

/** The declarations of the elements bundle as one formatted file. */
export async function elementsDeclarations(): Promise<string> {
  const program = ts.createProgram([ELEMENTS_ENTRY], COMPILER_OPTIONS);
  const emitted = new Map<string, ts.SourceFile>();
  const result = program.emit(undefined, (fileName, text) => {
    const source = path.relative(process.cwd(), fileName).replace(/\.d\.ts$/, ".ts");
    emitted.set(path.resolve(source), ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true));
  });
  const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (errors.length > 0) {
    throw new Error(ts.formatDiagnostics(errors, ts.createCompilerHost(COMPILER_OPTIONS)));
  }
  // Dependencies first, in the order the entry reaches them.
  const order: string[] = [];
  const visit = (file: string) => {
    if (order.includes(file)) return;
    const declarations = emitted.get(file);
    if (!declarations) throw new Error(`No declarations were emitted for ${file}`);
    for (const statement of declarations.statements) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
          ? statement.moduleSpecifier
          : undefined;
      if (specifier && isRelative(specifier)) {
        visit(path.resolve(path.dirname(file), `${(specifier as ts.StringLiteral).text}.ts`));
      }
    }
    order.push(file);
  };
  const entry = path.resolve(ELEMENTS_ENTRY);
  visit(entry);
  const externalImports = new Set<string>();
  const parts = order.flatMap((file) => body(emitted.get(file)!, externalImports));
  const exports = exportLines(program, program.getSourceFile(ELEMENTS_ENTRY)!);
  const declarations = reachable(parts, exports.locals).map((part) => part.text.trim());
  const text = [HEADER, [...externalImports].join("\n"), ...declarations, exports.text].join("\n\n");
  const config = await resolveConfig(ELEMENTS_DECLARATIONS);
  return format(text, { ...config, filepath: ELEMENTS_DECLARATIONS });
}

/** Whether the committed declarations match the source. */
export async function declarationsUpToDate(): Promise<boolean> {
  const committed = fs.existsSync(ELEMENTS_DECLARATIONS)
    ? fs.readFileSync(ELEMENTS_DECLARATIONS, "utf8")
    : "";
  return committed === (await elementsDeclarations());
}
