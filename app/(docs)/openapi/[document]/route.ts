import { AppError } from "@/lib/errors";
import { SURFACES, presentError, type Surface } from "@/lib/http";
import { createSurfaceDocument } from "@/lib/openapi";

export const dynamic = "force-dynamic";

// GET /openapi/{surface}.json: the OpenAPI 3.1 document of one API surface
export async function GET(
  _req: Request,
  context: { params: Promise<{ document: string }> },
): Promise<Response> {
  const { document } = await context.params;
  const surface = document.replace(/\.json$/, "") as Surface;
  const body =
    document.endsWith(".json") && SURFACES.includes(surface) ? createSurfaceDocument(surface) : undefined;
  if (!body)
    return presentError(
      "public",
      new AppError("OPENAPI_DOCUMENT_NOT_FOUND", "No OpenAPI document of that name"),
    );
  return Response.json(body, {
    headers: { "access-control-allow-origin": "*", "cache-control": "no-cache" },
  });
}
