/**
 * Builds Sesame's web components (elements/src) into one ES module, dist/elements/sesame-elements.js,
 * served at /elements/v1/sesame-elements.js; the declarations generated from the same source go beside it.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { elementsDeclarations } from "./elements-declarations";

export const ELEMENTS_OUT = path.join("dist", "elements");

export async function buildElements(): Promise<void> {
  fs.mkdirSync(ELEMENTS_OUT, { recursive: true });
  await build({
    entryPoints: ["elements/src/index.ts"],
    outfile: path.join(ELEMENTS_OUT, "sesame-elements.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "eof",
    logLevel: "warning",
    // Lit's reactive properties are accessors on the prototype: class fields must not shadow them.
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
  });
  fs.writeFileSync(path.join(ELEMENTS_OUT, "sesame-elements.d.ts"), await elementsDeclarations());
}
