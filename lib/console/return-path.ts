/** The request header through which proxy.ts tells a console page its own path and query. */
export const CONSOLE_PATH_HEADER = "x-sesame-console-path";

/** The sign-in page, returning to `path` (a console page) afterwards. */
export const signInPath = (path: string | null | undefined): string => {
  const next = consoleReturnPath(path);
  return next === "/console" ? "/console/sign-in" : `/console/sign-in?next=${encodeURIComponent(next)}`;
};

/**
 * Where the console sends an operator after signing in (issue 29, point 8): the console page they had
 * open, never another site or the auth routes. `next` comes from the address bar, so anything that is not
 * plainly a console page (`/console`, `/console/…`, with an optional query) falls back to the overview.
 */
export function consoleReturnPath(next: unknown): string {
  if (typeof next !== "string" || next.length > 2000) return "/console";
  // One leading slash, no backslashes or control characters (browsers read `/\evil` as `//evil`).
  if (
    !/^\/console(?:[/?#]|$)/.test(next) ||
    [...next].some((c) => c === "\\" || c.charCodeAt(0) < 0x20) ||
    next.includes("//")
  ) {
    return "/console";
  }
  let url: URL;
  try {
    url = new URL(next, "http://console.invalid");
  } catch {
    return "/console";
  }
  // After normalisation (`/console/../t/…` leaves the console) it must still be a console page.
  if (url.origin !== "http://console.invalid" || !/^\/console(\/|$)/.test(url.pathname)) return "/console";
  if (/^\/console\/(sign-in|api|enroll)(\/|$)/.test(url.pathname)) return "/console";
  return `${url.pathname}${url.search}${url.hash}`;
}
