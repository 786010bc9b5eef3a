import type { BrandingSettings } from "@/lib/settings/schemas";

/** What the hosted pages show of a tenant: its name and validated branding. */
export interface HostedBranding {
  displayName: string;
  logoUrl: string | null;
  /** CSS custom properties for the page; the Sesame elements read the `--sesame-*` ones. */
  style: Record<string, string>;
}

const DARK = "#0f172a";
const LIGHT = "#ffffff";
/** WCAG 2.x AA for normal text. */
const TEXT_CONTRAST = 4.5;
/** WCAG 2.x AA for UI component boundaries (1.4.11). */
const UI_CONTRAST = 3;

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1, 7), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function hex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

function luminance(color: string): number {
  const [r, g, b] = rgb(color).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `preferred` when it is readable on `background`, else the darker or lighter default, whichever reads better. */
export function readableOn(background: string, preferred: string, minimum = TEXT_CONTRAST): string {
  if (contrastRatio(preferred, background) >= minimum) return preferred;
  return contrastRatio(DARK, background) >= contrastRatio(LIGHT, background) ? DARK : LIGHT;
}

/** `amount` (0–1) of `top` over `bottom`. */
export function mix(bottom: string, top: string, amount: number): string {
  const [a, b] = [rgb(bottom), rgb(top)];
  return hex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as Rgb);
}

/** The lightest mix of text into background that still reaches `minimum` against the background. */
function borderColor(background: string, text: string): string {
  for (let amount = 0.3; amount < 1; amount += 0.05) {
    const candidate = mix(background, text, amount);
    if (contrastRatio(candidate, background) >= UI_CONTRAST) return candidate;
  }
  return text;
}

const ERROR_ON_LIGHT = "#b91c1c";
/** The elements' default for secondary text (the "or" between buttons). */
const MUTED = "#475569";
const ERROR_ON_DARK = "#fca5a5";

const FONT_STACK = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/**
 * The tenant's branding as the hosted pages use it. The tenant's text colour is kept only where it is
 * readable on its background (else a dark or light default), and text on the primary colour is white or
 * dark, whichever contrasts more; links and secondary text keep 4.5:1 too: the pages stay legible (WCAG AA) whatever colours a tenant picks.
 */
export function hostedBranding(tenantName: string, branding: BrandingSettings): HostedBranding {
  const background = branding.backgroundColor;
  const text = readableOn(background, branding.textColor);
  const primary = branding.primaryColor;
  const primaryText = readableOn(primary, LIGHT);
  const error = readableOn(background, ERROR_ON_LIGHT) === ERROR_ON_LIGHT ? ERROR_ON_LIGHT : ERROR_ON_DARK;
  return {
    displayName: branding.displayName ?? tenantName,
    logoUrl: branding.logoUrl,
    style: {
      "--sesame-color-primary": primary,
      "--sesame-color-primary-text": primaryText,
      "--sesame-color-background": background,
      "--sesame-color-text": text,
      "--sesame-color-border": borderColor(background, text),
      "--sesame-color-error": contrastRatio(error, background) >= TEXT_CONTRAST ? error : text,
      // Links are text: the primary colour only where it reads on the background (else the text colour).
      "--sesame-color-link": contrastRatio(primary, background) >= TEXT_CONTRAST ? primary : text,
      "--sesame-color-muted": readableOn(background, MUTED),
      "--sesame-radius": "0.5rem",
      "--sesame-font-family": FONT_STACK,
      // The page around the card: a faint tint of the text colour over the background.
      "--hosted-page-background": mix(background, text, 0.04),
    },
  };
}
