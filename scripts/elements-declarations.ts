// `tsx scripts/elements-declarations.ts` writes elements/sesame-elements.d.ts from elements/src;
// with `--check` it only tells whether the committed file is up to date (exit 1 when not).
import fs from "node:fs";
import {
  declarationsUpToDate,
  ELEMENTS_DECLARATIONS,
  elementsDeclarations,
} from "./lib/elements-declarations";

if (process.argv.includes("--check")) {
  if (!(await declarationsUpToDate())) {
    process.stderr.write(
      `${ELEMENTS_DECLARATIONS} differs from elements/src: run \`tsx scripts/elements-declarations.ts\`\n`,
    );
    process.exit(1);
  }
} else {
  fs.writeFileSync(ELEMENTS_DECLARATIONS, await elementsDeclarations());
}
