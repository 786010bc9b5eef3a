"use client";

import { useCallback, useEffect, useState } from "react";
import type { HostedLang } from "@/lib/hosted/lang";
import { messages } from "@/lib/hosted/messages";
import { hostedButton } from "./hosted-shell";

interface App {
  client_id: string;
  name: string | null;
  scopes: string[];
}

/**
 * The profile's "Connected apps": the OpenID Connect clients the signed-in user allowed (public API
 * `GET /connected_apps`), each with a button that disconnects it (`DELETE /connected_apps/{id}`: consent
 * withdrawn, the app's tokens revoked). Shows nothing without a session or without any app.
 */
export function ConnectedApps({ tenantId, lang }: { tenantId: string; lang: HostedLang }) {
  const t = messages(lang);
  const [apps, setApps] = useState<App[] | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const base = `/t/${tenantId}/connected_apps`;

  const load = useCallback(async () => {
    const res = await fetch(base, { credentials: "same-origin", cache: "no-store" }).catch(() => undefined);
    setApps(res?.ok ? ((await res.json()) as App[]) : []);
  }, [base]);

  useEffect(() => {
    void load();
  }, [load]);

  const disconnect = async (clientId: string) => {
    setFailed(false);
    const res = await fetch(`${base}/${encodeURIComponent(clientId)}`, {
      method: "DELETE",
      credentials: "same-origin",
    }).catch(() => undefined);
    if (!res || (res.status !== 204 && res.status !== 404)) setFailed(true);
    await load();
  };

  if (!apps || apps.length === 0) return null;
  return (
    <section aria-labelledby="connected-apps" data-connected-apps className="mt-8 w-full text-left">
      <h2 id="connected-apps" className="text-lg font-semibold">
        {t.connectedApps}
      </h2>
      <p className="mt-1 text-sm opacity-80">{t.connectedAppsHint}</p>
      <ul className="mt-3 space-y-2">
        {apps.map((app) => (
          <li
            key={app.client_id}
            className="flex items-center justify-between gap-4"
            data-client-id={app.client_id}
          >
            <span>
              <span className="font-medium">{app.name ?? app.client_id}</span>
              <span className="block text-xs opacity-70">{app.scopes.join(" ")}</span>
            </span>
            <button type="button" className={hostedButton} onClick={() => void disconnect(app.client_id)}>
              {t.disconnect}
            </button>
          </li>
        ))}
      </ul>
      {failed ? (
        <p role="alert" className="mt-2 text-sm">
          {t.disconnectFailed}
        </p>
      ) : null}
    </section>
  );
}
