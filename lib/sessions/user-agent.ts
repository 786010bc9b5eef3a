/** Browser tokens in the order they are tried: Edge and Opera also say `Chrome/`, Chrome also says `Safari/`. */
const BROWSERS = [
  ["Edg/", "Edge"],
  ["OPR/", "Opera"],
  ["Firefox/", "Firefox"],
  ["Chrome/", "Chrome"],
  ["Safari/", "Safari"],
] as const;

/** System tokens in the order they are tried: iOS also says `Mac OS X`, Android also says `Linux`. */
const SYSTEMS = [
  ["Windows", "Windows"],
  ["iPhone", "iOS"],
  ["iPad", "iOS"],
  ["Android", "Android"],
  ["Mac OS X", "Mac OS X"],
  ["Linux", "Linux"],
] as const;

/**
 * A session's user agent as people read it, `Browser (OS)` as Hanko shows it (e.g. `Chrome (Windows)`);
 * only the browser or the system when the other is unknown, else the raw string's first 64 characters.
 */
export function userAgentName(raw: string): string {
  const { browser, system } = userAgentParts(raw);
  if (browser && system) return `${browser} (${system})`;
  return browser ?? system ?? raw.slice(0, 64);
}

/** The browser and system a user agent names, each undefined when not recognised. */
export function userAgentParts(raw: string): { browser?: string; system?: string } {
  return {
    browser: BROWSERS.find(([token]) => raw.includes(token))?.[1],
    system: SYSTEMS.find(([token]) => raw.includes(token))?.[1],
  };
}
