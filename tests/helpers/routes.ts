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

/** Every `route.ts` below `root`, as `METHOD /path/{param}` for each method it exports. */
export async function servedRoutes(root: string): Promise<Set<string>> {
  const served = new Set<string>();
  for (const file of routeFiles(root)) {
    const module = (await import(file)) as Record<string, unknown>;
    const relative = path.relative(root, path.dirname(file)).split(path.sep);
    const template = `/${relative.map((part) => part.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`;
    for (const method of HTTP_METHODS) {
      if (typeof module[method] === "function") served.add(`${method} ${template}`);
    }
  }
  return served;
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}
