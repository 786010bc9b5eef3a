import type { CSSProperties, ReactNode } from "react";
import type { HostedLang } from "@/lib/hosted/lang";

/** Visible keyboard focus in the page's own text colour (readable on its background by construction). */
export const focusRing =
  "rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[color:var(--sesame-color-text)]";

/** A link in the page's text colour, underlined (the primary colour may not be readable as text). */
export const hostedLink = `font-medium underline underline-offset-2 ${focusRing}`;

/** A button in the primary colour, its text white or dark, whichever contrasts more. */
export const hostedButton =
  "inline-flex items-center justify-center rounded-[var(--sesame-radius)] bg-[color:var(--sesame-color-primary)] " +
  "px-4 py-2 text-sm font-medium text-[color:var(--sesame-color-primary-text)] hover:opacity-90 " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[color:var(--sesame-color-text)]";

/**
 * The branded frame of every hosted page: one `main` (with the page's language), a card with the logo and
 * the one `h1`, then the page's content. Used by server pages and client states (loading, error) alike.
 */
export function HostedShell({
  lang,
  style,
  heading,
  logoUrl,
  logoAlt,
  subtitle,
  children,
}: {
  lang: HostedLang;
  /** CSS custom properties (`--sesame-*`) from `hostedBranding`. */
  style: Record<string, string>;
  /** The page's only `h1`: the tenant's display name, or the state's title when there is no tenant. */
  heading: string;
  logoUrl?: string | null;
  /** The logo's alt text: the tenant's display name. */
  logoAlt?: string;
  /**
   * What the page is for (Sign out, …), below the heading. Not on pages that embed an element: the
   * element's headline (Sign in, Your account) names the step, so the title shows once.
   */
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <main
      lang={lang}
      style={style as CSSProperties}
      className="flex min-h-screen items-start justify-center bg-[color:var(--hosted-page-background)] px-4 py-12 text-[color:var(--sesame-color-text)] [font-family:var(--sesame-font-family)] sm:py-20"
    >
      <div className="w-full max-w-md rounded-xl border border-[color:var(--sesame-color-border)] bg-[color:var(--sesame-color-background)] p-6 shadow-sm sm:p-8">
        <header className="flex flex-col items-center gap-3 text-center">
          {logoUrl ? (
            // A plain img: the logo may be on any https host, which next/image would need configured in advance.
            <img
              src={logoUrl}
              alt={logoAlt ?? heading}
              referrerPolicy="no-referrer"
              className="h-12 w-auto max-w-[12rem] object-contain"
            />
          ) : null}
          <h1 className="text-2xl font-semibold tracking-tight">{heading}</h1>
          {subtitle ? <p className="text-base">{subtitle}</p> : null}
        </header>
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}
