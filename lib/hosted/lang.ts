/** Languages of the hosted pages and of the Sesame elements on them. */
export const HOSTED_LANGS = ["en", "de"] as const;
export type HostedLang = (typeof HOSTED_LANGS)[number];

export function isHostedLang(value: unknown): value is HostedLang {
  return typeof value === "string" && (HOSTED_LANGS as readonly string[]).includes(value);
}

/**
 * The supported language the `Accept-Language` header prefers most (highest q, earlier on a tie; `de-AT`
 * counts as `de`, `*` and q=0 count for nothing), else `en`.
 */
export function preferredLang(acceptLanguage: string | null | undefined): HostedLang {
  if (!acceptLanguage) return "en";
  let best: { lang: HostedLang; q: number } | undefined;
  for (const part of acceptLanguage.slice(0, 1024).split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const lang = tag.trim().toLowerCase().split("-")[0];
    if (!isHostedLang(lang)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (!best || q > best.q) best = { lang, q };
  }
  return best?.lang ?? "en";
}

/** `?lang=en|de` wins; else the browser's preference; else English. */
export function pickLang(query: string | undefined, acceptLanguage: string | null | undefined): HostedLang {
  return isHostedLang(query) ? query : preferredLang(acceptLanguage);
}
