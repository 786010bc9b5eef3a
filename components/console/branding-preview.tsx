"use client";

import type { CSSProperties } from "react";
import { hostedBranding } from "@/lib/hosted/branding";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";

const HEX = /^#[0-9a-fA-F]{6}$/;

/** What the branding form holds right now (unsaved, possibly invalid while typing). */
export interface BrandingPreviewValues {
  /** The tenant's name: what the page shows without a display name. */
  tenantName: string;
  displayName: string;
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
  logoUrl: string;
}

/** A colour the page could use: a valid `#rrggbb`, else the default (the form shows the error). */
const colour = (value: string, fallback: string) => (HEX.test(value.trim()) ? value.trim() : fallback);

function previewLogo(value: string): string | null {
  try {
    const url = new URL(value.trim());
    const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    return url.protocol === "https:" || (url.protocol === "http:" && loopback) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A faithful miniature of the hosted login page (app/(hosted)/…/login): the page tint, one card with the
 * logo and the display name, then what `<sesame-auth>` shows first, all with the colours the hosted page
 * derives from the branding (lib/hosted/branding.ts: readable text, border and button text). Static: the
 * controls are pictures of controls, hidden from assistive technology except for the caption.
 */
export function BrandingPreview(values: BrandingPreviewValues) {
  const branding = hostedBranding(values.tenantName, {
    displayName: values.displayName.trim() || null,
    primaryColor: colour(values.primaryColor, DEFAULT_BRANDING.primaryColor),
    backgroundColor: colour(values.backgroundColor, DEFAULT_BRANDING.backgroundColor),
    textColor: colour(values.textColor, DEFAULT_BRANDING.textColor),
    logoUrl: previewLogo(values.logoUrl),
  });
  const style = branding.style as CSSProperties;
  return (
    <figure className="m-0" data-testid="branding-preview">
      <figcaption className="mb-2 text-sm font-medium text-slate-800 dark:text-slate-200">
        Live preview of the hosted login page
      </figcaption>
      <div
        aria-hidden="true"
        style={style}
        className="flex justify-center overflow-hidden rounded-lg bg-[color:var(--hosted-page-background)] px-4 py-8 text-[color:var(--sesame-color-text)] ring-1 ring-slate-200 [font-family:var(--sesame-font-family)] dark:ring-slate-700"
      >
        <div
          data-testid="preview-card"
          className="w-full max-w-xs rounded-xl border border-[color:var(--sesame-color-border)] bg-[color:var(--sesame-color-background)] p-5 shadow-sm"
        >
          <div className="flex flex-col items-center gap-2 text-center">
            {branding.logoUrl ? (
              // Any https host: a plain img, as on the hosted page.
              <img
                src={branding.logoUrl}
                alt=""
                referrerPolicy="no-referrer"
                className="h-9 w-auto max-w-[9rem] object-contain"
              />
            ) : null}
            <p data-testid="preview-heading" className="text-xl font-semibold tracking-tight">
              {branding.displayName}
            </p>
          </div>
          <div className="mt-4 text-sm">
            <p className="mb-3 text-lg font-semibold">Sign in</p>
            <p className="mb-1 text-xs font-medium">Email</p>
            <div className="mb-2 h-8 rounded-[var(--sesame-radius)] border border-[color:var(--sesame-color-border)] bg-white" />
            <div
              data-testid="preview-button"
              className="flex h-8 items-center justify-center rounded-[var(--sesame-radius)] bg-[color:var(--sesame-color-primary)] text-xs font-semibold text-[color:var(--sesame-color-primary-text)]"
            >
              Continue
            </div>
            <p className="my-2 text-center text-xs text-[color:var(--sesame-color-muted)]">or</p>
            <div className="flex h-8 items-center justify-center rounded-[var(--sesame-radius)] border border-[color:var(--sesame-color-border)] text-xs font-semibold">
              Sign in with a passkey
            </div>
            <p className="mt-3 text-xs">
              No account yet?{" "}
              <span className="text-[color:var(--sesame-color-link)] underline">Create account</span>
            </p>
          </div>
        </div>
      </div>
    </figure>
  );
}
