/**
 * The request's `Referer` when it is an absolute http(s) URL, else undefined. Browsers send the page's
 * full URL to the same origin and only its origin across origins (the default referrer policy).
 */
export function refererOf(req: Request): string | undefined {
  const value = req.headers.get("referer");
  if (!value || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
