import { headers } from "next/headers";
import { hostedBranding } from "@/lib/hosted/branding";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";
import { preferredLang } from "@/lib/hosted/lang";
import { messages } from "@/lib/hosted/messages";
import { HostedShell } from "./_components/hosted-shell";

/** An unknown or malformed tenant id (status 404): no tenant, so Sesame's neutral look. */
export default async function HostedNotFound() {
  const lang = preferredLang((await headers()).get("accept-language"));
  const t = messages(lang);
  return (
    <HostedShell lang={lang} style={hostedBranding("", DEFAULT_BRANDING).style} heading={t.notFoundTitle}>
      <p className="text-center">{t.notFoundText}</p>
    </HostedShell>
  );
}
