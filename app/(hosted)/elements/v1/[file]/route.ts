import path from "node:path";
import { serveFile } from "@/lib/http/static-file";

export const dynamic = "force-dynamic";

/** The files `npm run build` puts in dist/elements (scripts/lib/elements.ts), by served name. */
const FILES: Record<string, string> = {
  "sesame-elements.js": "text/javascript; charset=utf-8",
  "sesame-elements.d.ts": "application/typescript; charset=utf-8",
};

// GET /elements/v1/sesame-elements.js (and .d.ts): Sesame's web components, one ES module
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
  if (!type) return serveFile("", "", "Not found\n");
  // Any site may load the bundle (it only talks to the tenant URL it is registered with).
  return serveFile(
    path.join(process.cwd(), "dist", "elements", file),
    type,
    `${file} is not built yet (npm run build).\n`,
    {
      "access-control-allow-origin": "*",
    },
  );
}
