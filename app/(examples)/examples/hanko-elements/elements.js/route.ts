import path from "node:path";
import { examplesServe } from "@/lib/examples";
import { serveFile } from "@/lib/http/static-file";

// Hanko's own web components, exactly as npm ships them (an ES module that bundles the frontend SDK).
const BUNDLE = path.join(
  process.cwd(),
  "node_modules",
  "@teamhanko",
  "hanko-elements",
  "dist",
  "elements.js",
);

export const dynamic = "force-dynamic";

// GET /examples/hanko-elements/elements.js: the unmodified @teamhanko/hanko-elements bundle
export async function GET(req: Request): Promise<Response> {
  if (!examplesServe(req.headers.get("x-forwarded-for"))) return new Response("Not Found\n", { status: 404 });
  return serveFile(
    BUNDLE,
    "text/javascript; charset=utf-8",
    "@teamhanko/hanko-elements is not installed (npm install).\n",
  );
}
