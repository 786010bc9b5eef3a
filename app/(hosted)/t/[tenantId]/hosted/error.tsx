"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { hostedBranding } from "@/lib/hosted/branding";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";
import { isHostedLang, preferredLang, type HostedLang } from "@/lib/hosted/lang";
import { messages } from "@/lib/hosted/messages";
import { HostedShell, hostedButton } from "./_components/hosted-shell";

/**
 * Any error while rendering a hosted page, the tenant's loading included (database unreachable): a neutral
 * card with a retry button. The error's details stay in the server log (Next.js sends only a digest).
 */
export default function HostedError({ error, retry }: { error: unknown; retry: () => void }) {
  const requested = useSearchParams().get("lang");
  const [lang, setLang] = useState<HostedLang>(isHostedLang(requested) ? requested : "en");

  useEffect(() => {
    if (!isHostedLang(requested)) setLang(preferredLang(navigator.languages.join(",")));
  }, [requested]);

  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  const t = messages(lang);
  return (
    <HostedShell lang={lang} style={hostedBranding("", DEFAULT_BRANDING).style} heading={t.errorTitle}>
      <div role="alert" className="space-y-4 text-center">
        <p>{t.errorText}</p>
        {digest ? <p className="text-sm">Ref. {digest}</p> : null}
        <button type="button" className={hostedButton} onClick={() => retry()}>
          {t.retry}
        </button>
      </div>
    </HostedShell>
  );
}
