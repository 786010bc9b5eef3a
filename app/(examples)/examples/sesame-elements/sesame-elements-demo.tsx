"use client";

import { createElement, useEffect, useState } from "react";
import { Panel, StatusMessage, button, quietButton, type Message } from "@/components/examples/ui";
import type { RegisterOptions, SesameClient } from "@/elements/sesame-elements";

const BUNDLE_URL = "/elements/v1/sesame-elements.js";
const EVENT_NAMES = [
  "sesame-auth-success",
  "sesame-auth-error",
  "sesame-login",
  "sesame-registration",
  "sesame-logout",
  "sesame-session-expired",
] as const;

interface ElementsModule {
  register(api: string, options?: RegisterOptions): Promise<{ sesame: SesameClient }>;
}

export interface RecordedSesameEvent {
  type: string;
  detail: unknown;
}

declare global {
  interface Window {
    /** Every `sesame-*` event the page saw, oldest first (read by the e2e tests). */
    __sesameEvents?: RecordedSesameEvent[];
    __sesame?: SesameClient;
  }
}

export function SesameElementsDemo({
  tenantId,
  view,
  lang,
  shadow,
}: {
  tenantId: string;
  view: "auth" | "profile";
  lang: string;
  shadow: boolean;
}) {
  const [sesame, setSesame] = useState<SesameClient | null>(null);
  const [events, setEvents] = useState<RecordedSesameEvent[]>([]);
  const [message, setMessage] = useState<Message | null>(null);

  useEffect(() => {
    const recorded: RecordedSesameEvent[] = (window.__sesameEvents ??= []);
    const listener = (event: Event) => {
      recorded.push({ type: event.type, detail: (event as CustomEvent).detail });
      setEvents([...recorded]);
    };
    for (const type of EVENT_NAMES) document.addEventListener(type, listener);
    let active = true;
    const url: string = BUNDLE_URL;
    (import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url) as Promise<ElementsModule>)
      .then((elements) => elements.register(`${window.location.origin}/t/${tenantId}`, { shadow, lang }))
      .then(
        ({ sesame: client }) => {
          window.__sesame = client;
          if (active) setSesame(client);
        },
        (error: unknown) => {
          if (active)
            setMessage({ text: `Could not load the elements: ${(error as Error).message}`, error: true });
        },
      );
    return () => {
      active = false;
      for (const type of EVENT_NAMES) document.removeEventListener(type, listener);
    };
  }, [tenantId, shadow, lang]);

  const run = async (work: () => Promise<string>) => {
    try {
      setMessage({ text: await work() });
    } catch (error) {
      setMessage({ text: (error as Error).message, error: true });
    }
  };
  const query = (next: string) =>
    `?tenant=${tenantId}${next}${lang === "de" ? "&lang=de" : ""}${shadow ? "" : "&shadow=false"}`;

  return (
    <div className="mt-8 space-y-6">
      <nav aria-label="Element" className="flex gap-2 text-sm">
        <a
          href={query("")}
          aria-current={view === "auth" ? "page" : undefined}
          className="rounded px-3 py-1 underline"
        >
          &lt;sesame-auth&gt;
        </a>
        <a
          href={query("&view=profile")}
          aria-current={view === "profile" ? "page" : undefined}
          className="rounded px-3 py-1 underline"
        >
          &lt;sesame-profile&gt;
        </a>
      </nav>
      <section aria-label="Sesame element">
        {sesame ? (
          createElement(view === "profile" ? "sesame-profile" : "sesame-auth", { lang })
        ) : (
          <p>Loading…</p>
        )}
      </section>
      <div className="flex gap-2">
        <button
          type="button"
          className={button}
          disabled={!sesame}
          onClick={() => void run(async () => (await sesame!.logout(), "Logged out"))}
        >
          Log out
        </button>
        <button
          type="button"
          className={quietButton}
          disabled={!sesame}
          onClick={() =>
            void run(async () => {
              const user = await sesame!.getCurrentUser();
              return user ? `Signed in as ${user.email ?? user.id}` : "Not signed in";
            })
          }
        >
          Who am I?
        </button>
      </div>
      <StatusMessage message={message} />
      <Panel id="sesame-events" title="Events">
        <ol aria-labelledby="sesame-events" className="mt-2 space-y-1 text-sm">
          {events.map((event, index) => (
            <li key={index}>
              <code>{event.type}</code>
            </li>
          ))}
        </ol>
      </Panel>
    </div>
  );
}
