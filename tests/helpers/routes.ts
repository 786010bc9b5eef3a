import fs from "node:fs";
import path from "node:path";

/** The params of `path` if it fits the template (`/a/{id}/b`), else undefined: how Next.js routes a folder tree. */
export function matchTemplate(template: string, pathname: string): Record<string, string> | undefined {
  const want = template.split("/");
  const got = pathname.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) params[name] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return undefined;
  }
  return params;
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** One exported handler of a `route.ts`: its method, its path template (`/t/{tenantId}/…`) and the function. */
export interface RouteHandler {
  method: (typeof HTTP_METHODS)[number];
  template: string;
  handler: (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
}

/** Every handler of every `route.ts` below `root` (the template is relative to `root`). */
export async function routeHandlers(root: string): Promise<RouteHandler[]> {
  const handlers: RouteHandler[] = [];
  for (const file of routeFiles(root)) {
    const module = (await import(file)) as Record<string, unknown>;
    const relative = path.relative(root, path.dirname(file)).split(path.sep);
    const template = `/${relative.map((part) => part.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`;
    for (const method of HTTP_METHODS) {
      const handler = module[method];
      if (typeof handler === "function") {
        handlers.push({ method, template, handler: handler as RouteHandler["handler"] });
      }
    }
  }
  return handlers;
}

/** Every `route.ts` below `root`, as `METHOD /path/{param}` for each method it exports. */
export async function servedRoutes(root: string): Promise<Set<string>> {
  return new Set((await routeHandlers(root)).map(({ method, template }) => `${method} ${template}`));
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}
