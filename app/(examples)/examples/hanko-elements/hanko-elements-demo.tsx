"use client";

import { createElement, useCallback, useEffect, useState } from "react";
import { Panel, StatusMessage, button, quietButton, type Message } from "@/components/examples/ui";

/** The unmodified npm bundle, served by ./elements.js/route.ts. */
const BUNDLE_URL = "/examples/hanko-elements/elements.js";

/** The SDK's events, dispatched on `document`; the state-change ones name the flow state reached. */
const HANKO_EVENTS = [
  "hanko-session-created",
  "hanko-session-expired",
  "hanko-user-logged-out",
  "hanko-user-deleted",
  "hanko-after-state-change",
] as const;

/** The part of the bundled frontend SDK (`Hanko` in the package's d.ts) this page uses. */
interface HankoSdk {
  logout(): Promise<void>;
  validateSession(): Promise<{ is_valid: boolean; claims?: { subject?: string } }>;
}

interface ElementsModule {
  register(api: string, options?: { shadow?: boolean }): Promise<{ hanko: HankoSdk }>;
}

export interface RecordedHankoEvent {
  type: string;
  /** ISO time the page saw it. */
  at: string;
  /** The event's detail; for `hanko-after-state-change`, the flow state's name. */
  detail: unknown;
}

declare global {
  interface Window {
    /** Every `hanko-*` event the page saw, oldest first (read by e2e/process/hanko-elements.spec.ts). */
    __hankoEvents?: RecordedHankoEvent[];
  }
}

// The elements register once per page: custom elements cannot be defined twice.
const registrations = new Map<string, Promise<{ hanko: HankoSdk }>>();

function registerElements(api: string): Promise<{ hanko: HankoSdk }> {
  let registration = registrations.get(api);
  if (!registration) {
    const url: string = BUNDLE_URL;
    registration = (
      import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url) as Promise<ElementsModule>
    )
      .then((elements) => elements.register(api))
      .catch((error: unknown) => {
        registrations.delete(api);
        throw error;
      });
    registrations.set(api, registration);
  }
  return registration;
}

/** A short, JSON-safe view of an event's detail (state objects hold the whole SDK). */
function describe(type: string, detail: unknown): unknown {
  if (type === "hanko-after-state-change") {
    return (detail as { state?: { name?: unknown } } | null)?.state?.name ?? null;
  }
  try {
    return JSON.parse(JSON.stringify(detail ?? null)) as unknown;
  } catch {
    return String(detail);
  }
}

export function HankoElementsDemo({
  tenantId,
  origins,
  view,
}: {
  tenantId: string;
  /** The tenant's allowed origins: passkeys work only when this page's origin is one of them. */
  origins: string[];
  view: "auth" | "profile";
}) {
  const [api, setApi] = useState<string | null>(null);
  const [hanko, setHanko] = useState<HankoSdk | null>(null);
  const [events, setEvents] = useState<RecordedHankoEvent[]>([]);
  const [message, setMessage] = useState<Message | null>(null);
  const [originAllowed, setOriginAllowed] = useState(true);

  useEffect(() => {
    const recorded: RecordedHankoEvent[] = (window.__hankoEvents ??= []);
    setEvents([...recorded]);
    const listener = (event: Event) => {
      recorded.push({
        type: event.type,
        at: new Date().toISOString(),
        detail: describe(event.type, (event as CustomEvent).detail),
      });
      setEvents([...recorded]);
    };
    for (const type of HANKO_EVENTS) document.addEventListener(type, listener);
    return () => {
      for (const type of HANKO_EVENTS) document.removeEventListener(type, listener);
    };
  }, []);

  useEffect(() => {
    const origin = window.location.origin;
    const tenantUrl = `${origin}/t/${tenantId}`;
    setApi(tenantUrl);
    setOriginAllowed(origins.includes(origin));
    let active = true;
    registerElements(tenantUrl).then(
      (registered) => {
        if (active) setHanko(registered.hanko);
      },
      (error: unknown) => {
        if (active)
          setMessage({ text: `Could not load the elements: ${(error as Error).message}`, error: true });
      },
    );
    return () => {
      active = false;
    };
  }, [tenantId, origins]);

  const run = useCallback(async (work: () => Promise<string>) => {
    try {
      setMessage({ text: await work() });
    } catch (error) {
      setMessage({ text: (error as Error).message, error: true });
    }
  }, []);

  const logout = () =>
    void run(async () => {
      if (!hanko) throw new Error("The elements are not loaded yet");
      await hanko.logout();
      return "Logged out";
    });

  const checkSession = () =>
    void run(async () => {
      if (!hanko) throw new Error("The elements are not loaded yet");
      const session = await hanko.validateSession();
      return session.is_valid
        ? `Session valid for user ${session.claims?.subject ?? "?"}`
        : "No valid session";
    });

  const sessionEvents = events.filter((event) => event.type !== "hanko-after-state-change");
  const states = events.filter((event) => event.type === "hanko-after-state-change");

  return (
    <div className="mt-8 space-y-6">
      <nav aria-label="Element" className="flex gap-2 text-sm">
        {(["auth", "profile"] as const).map((name) => (
          <a
            key={name}
            href={`?tenant=${tenantId}${name === "profile" ? "&view=profile" : ""}`}
            aria-current={view === name ? "page" : undefined}
            className={`rounded px-3 py-1 ${view === name ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {name === "auth" ? "<hanko-auth>" : "<hanko-profile>"}
          </a>
        ))}
      </nav>

      {!originAllowed && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm">
          This page&apos;s origin is not one of the tenant&apos;s origins ({origins.join(", ")}): passkeys
          will be refused.
        </p>
      )}

      <section
        aria-label="Hanko element"
        className="rounded-lg border border-slate-200 bg-white p-4"
        data-api={api ?? undefined}
      >
        {hanko ? createElement(view === "profile" ? "hanko-profile" : "hanko-auth") : <p>Loading…</p>}
      </section>

      <div className="flex gap-2">
        <button type="button" className={button} onClick={logout} disabled={!hanko}>
          Log out
        </button>
        <button type="button" className={quietButton} onClick={checkSession} disabled={!hanko}>
          Check session
        </button>
      </div>
      <StatusMessage message={message} />

      <Panel id="hanko-events" title="Events">
        {sessionEvents.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No session events yet.</p>
        ) : (
          <ol aria-labelledby="hanko-events" className="mt-2 space-y-1 text-sm">
            {sessionEvents.map((event, index) => (
              <li key={index} data-event={event.type}>
                <code>{event.type}</code> <span className="text-slate-500">{event.at}</span>
              </li>
            ))}
          </ol>
        )}
        <p className="mt-3 text-sm text-slate-500">
          Flow states:{" "}
          {states.length === 0 ? "none yet" : states.map((event) => String(event.detail)).join(" → ")}
        </p>
      </Panel>
    </div>
  );
}
