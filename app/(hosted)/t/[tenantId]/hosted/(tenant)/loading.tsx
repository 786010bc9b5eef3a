"use client";

import { useSearchParams } from "next/navigation";
import { hostedBranding } from "@/lib/hosted/branding";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";
import { isHostedLang } from "@/lib/hosted/lang";
import { messages } from "@/lib/hosted/messages";
import { useHostedContext } from "../_components/hosted-context";
import { HostedShell } from "../_components/hosted-shell";

/** While a hosted page renders on the server: the tenant's card with a status line. */
export default function HostedLoading() {
  const context = useHostedContext();
  const requested = useSearchParams().get("lang");
  const lang = isHostedLang(requested) ? requested : (context?.lang ?? "en");
  const t = messages(lang);
  const branding = context?.branding ?? hostedBranding("Sesame", DEFAULT_BRANDING);
  return (
    <HostedShell
      lang={lang}
      style={branding.style}
      heading={branding.displayName}
      logoUrl={branding.logoUrl}
      logoAlt={branding.displayName}
    >
      <p role="status" className="py-6 text-center">
        {t.loading}
      </p>
    </HostedShell>
  );
}
