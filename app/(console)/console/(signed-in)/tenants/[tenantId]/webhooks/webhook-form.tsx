"use client";

import { useRouter } from "next/navigation";
import { useId, useMemo, useState } from "react";
import { SecretOnce, useConsoleAction } from "@/components/console/client";
import { Button, FormField, fieldProps, inputClass } from "@/components/console/ui";
import { createWebhookAction, updateWebhookAction } from "./actions";
import type { EventAlias, EventNode } from "./events";

/** What a subscription name receives: an alias stands for its canonical event. */
const effectiveOf = (aliases: EventAlias[]) => {
  const map = new Map(aliases.map((alias) => [alias.name, alias.canonical]));
  return (name: string) => map.get(name) ?? name;
};

/** The selected name (other than `name`) whose subscription already receives everything `name` does. */
function coveringOf(name: string, selected: string[], effective: (name: string) => string) {
  const own = effective(name);
  return selected.find((other) => {
    if (other === name) return false;
    const theirs = effective(other);
    return own === theirs || own.startsWith(`${theirs}.`);
  });
}

/** Keeps only the names no other selected name covers (the first of two equal ones stays). */
function normalise(names: string[], effective: (name: string) => string): string[] {
  const kept: string[] = [];
  for (const name of names) {
    if (coveringOf(name, kept, effective)) continue;
    const theirs = effective(name);
    const next = kept.filter((other) => {
      const own = effective(other);
      return !(own === theirs || own.startsWith(`${theirs}.`));
    });
    kept.splice(0, kept.length, ...next, name);
  }
  return kept;
}

/**
 * The event picker: the hierarchy as nested checkboxes. Ticking a parent subscribes to its prefix, so
 * the names below it show as included (ticked, not editable); the spec's aliases are listed apart.
 */
export function EventPicker({
  tree,
  aliases,
  selected,
  onChange,
  error,
}: {
  tree: EventNode[];
  aliases: EventAlias[];
  selected: string[];
  onChange: (selected: string[]) => void;
  error?: string;
}) {
  const id = useId();
  const [query, setQuery] = useState("");
  const effective = useMemo(() => effectiveOf(aliases), [aliases]);
  const wanted = query.trim().toLowerCase();
  // A name shows when it or a name below it contains what was typed (its parents stay for the context).
  const matches = (node: EventNode): boolean =>
    node.name.includes(wanted) || node.children.some((child) => matches(child));
  const shownTree = wanted ? tree.filter(matches) : tree;
  const shownAliases = wanted
    ? aliases.filter((alias) => alias.name.includes(wanted) || alias.canonical.includes(wanted))
    : aliases;
  const toggle = (name: string, on: boolean) =>
    onChange(on ? normalise([...selected, name], effective) : selected.filter((other) => other !== name));
  const checkbox = (name: string, note?: string) => {
    const covering = coveringOf(name, selected, effective);
    const checked = selected.includes(name) || covering !== undefined;
    const inputId = `${id}-${name}`;
    return (
      <div className="flex items-center gap-2 py-0.5">
        <input
          type="checkbox"
          id={inputId}
          checked={checked}
          disabled={covering !== undefined}
          onChange={(event) => toggle(name, event.target.checked)}
          className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-600"
        />
        <label htmlFor={inputId} className="text-sm text-slate-800 dark:text-slate-200">
          <code>{name}</code>
          {note ? <span className="text-slate-600 dark:text-slate-400"> {note}</span> : null}
          {covering ? (
            <span className="text-slate-600 dark:text-slate-400"> (included by {covering})</span>
          ) : null}
        </label>
      </div>
    );
  };
  const branch = (nodes: EventNode[], nested: boolean) => (
    <ul className={nested ? "ml-6 border-l border-slate-200 pl-3 dark:border-slate-700" : ""}>
      {(wanted ? nodes.filter(matches) : nodes).map((node) => (
        <li key={node.name}>
          {checkbox(node.name, node.children.length > 0 ? "and everything below" : undefined)}
          {node.children.length > 0 ? branch(node.children, true) : null}
        </li>
      ))}
    </ul>
  );
  return (
    <fieldset
      aria-describedby={error ? `${id}-error` : `${id}-hint`}
      aria-invalid={error ? true : undefined}
      className="space-y-2"
    >
      <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Events</legend>
      <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        Ticking a name subscribes to it and to every event below it.
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="max-w-sm space-y-1">
        <label
          htmlFor={`${id}-search`}
          className="block text-xs font-medium text-slate-800 dark:text-slate-200"
        >
          Find an event
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          placeholder="user, session, email…"
          autoComplete="off"
          onChange={(event) => setQuery(event.target.value)}
          className={inputClass}
        />
      </div>
      {wanted && shownTree.length === 0 && shownAliases.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No event contains “{query.trim()}”.</p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>{branch(shownTree, false)}</div>
        <div>
          <p className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">
            The spec&apos;s aliases
          </p>
          <ul>
            {shownAliases.map((alias) => (
              <li key={alias.name}>{checkbox(alias.name, `= ${alias.canonical}`)}</li>
            ))}
          </ul>
        </div>
      </div>
    </fieldset>
  );
}

/** Create (with the secret shown once) or edit a webhook's callback and events. */
export function WebhookForm({
  tenantId,
  webhookId,
  initial,
  tree,
  aliases,
}: {
  tenantId: string;
  webhookId?: string;
  initial: { callback: string; events: string[] };
  tree: EventNode[];
  aliases: EventAlias[];
}) {
  const router = useRouter();
  const [callback, setCallback] = useState(initial.callback);
  const effective = useMemo(() => effectiveOf(aliases), [aliases]);
  const [events, setEvents] = useState(() => normalise(initial.events, effective));
  const [created, setCreated] = useState<{ id: string; secret: string } | undefined>();
  const create = useConsoleAction(createWebhookAction, {
    success: "Webhook created",
    onSuccess: (data) => setCreated(data),
  });
  const update = useConsoleAction(updateWebhookAction, {
    success: "Webhook saved",
    onSuccess: () => router.refresh(),
  });
  const { pending, fieldErrors } = webhookId ? update : create;
  const callbackId = webhookId ? "edit-callback" : "callback";
  return (
    <>
      <form
        className="space-y-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (webhookId) void update.run(tenantId, webhookId, { callback, events });
          else void create.run(tenantId, { callback, events });
        }}
      >
        <FormField
          id={callbackId}
          label="Callback URL"
          hint="An https URL Sesame POSTs signed events to (Standard Webhooks)."
          error={fieldErrors.callback}
        >
          <input
            {...fieldProps(callbackId, fieldErrors.callback)}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/hooks/sesame"
            value={callback}
            onChange={(event) => setCallback(event.target.value)}
          />
        </FormField>
        <EventPicker
          tree={tree}
          aliases={aliases}
          selected={events}
          onChange={setEvents}
          error={fieldErrors.events}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : webhookId ? "Save changes" : "Create webhook"}
        </Button>
      </form>
      {created ? (
        <SecretOnce
          label="The webhook's signing secret"
          value={created.secret}
          onDone={() => {
            const id = created.id;
            setCreated(undefined);
            router.push(`/console/tenants/${tenantId}/webhooks/${id}`);
          }}
        />
      ) : null}
    </>
  );
}
