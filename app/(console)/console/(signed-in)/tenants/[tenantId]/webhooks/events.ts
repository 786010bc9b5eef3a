import { WEBHOOK_EVENT_ALIASES, WEBHOOK_EVENTS } from "@/lib/webhooks/events";

/** One event name of the hierarchy and the names below it (a subscription to it receives them all). */
export interface EventNode {
  name: string;
  children: EventNode[];
}

/** A subscription name of the spec that stands for a canonical event (and everything below it). */
export interface EventAlias {
  name: string;
  canonical: string;
}

/**
 * The picker's data, plain and serialisable: the hierarchy (each name under its longest dot-prefix that
 * is itself a name) and the aliases apart, since an alias is not received through its dotted parent
 * (`user` does not receive logins: those are `session.create.flow`, i.e. `user.login`).
 */
export function eventPickerData(): { tree: EventNode[]; aliases: EventAlias[] } {
  const names = WEBHOOK_EVENTS.filter((name) => !(name in WEBHOOK_EVENT_ALIASES));
  const nodes = new Map<string, EventNode>(names.map((name) => [name, { name, children: [] }]));
  const tree: EventNode[] = [];
  for (const name of names) {
    const parts = name.split(".");
    let parent: EventNode | undefined;
    for (let length = parts.length - 1; length > 0 && !parent; length--) {
      parent = nodes.get(parts.slice(0, length).join("."));
    }
    (parent?.children ?? tree).push(nodes.get(name)!);
  }
  const aliases = Object.entries(WEBHOOK_EVENT_ALIASES).map(([name, canonical]) => ({ name, canonical }));
  return { tree, aliases };
}
