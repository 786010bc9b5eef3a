import type { AuditLogEntry } from "@/lib/audit-logs";
import { recentActivity } from "@/lib/console/activity";
import { userAgentName } from "@/lib/sessions";
import { EmptyState, Table, Td, Time } from "@/components/console/ui";
import { Section, none } from "./section";

/** What the user did, newest first, in words ("Signed in with a passkey"), not flow steps. */
export function ActivitySection({ entries, limit }: { entries: AuditLogEntry[]; limit: number }) {
  const activity = recentActivity(entries, limit);
  return (
    <Section title="Recent activity">
      {activity.length === 0 ? (
        <EmptyState title="Nothing yet" description="Their sign-ins, sign-ups and changes appear here." />
      ) : (
        <Table caption={`What the user did lately (at most ${limit})`} head={["When", "What", "From"]}>
          {activity.map((entry) => {
            const agent = entry.userAgent ? userAgentName(entry.userAgent) : undefined;
            return (
              <tr key={entry.id} data-testid="activity-row">
                <Td className="whitespace-nowrap">
                  <Time value={entry.createdAt} />
                </Td>
                <Td>
                  <span title={entry.type}>{entry.words}</span>
                  {entry.error ? (
                    <span className="block text-xs text-slate-600 dark:text-slate-400">{entry.error}</span>
                  ) : null}
                </Td>
                <Td>
                  {agent || entry.ip ? (
                    <span className="text-xs">
                      {agent ?? ""}
                      {agent && entry.ip ? ", " : ""}
                      <span className="font-mono">{entry.ip ?? ""}</span>
                    </span>
                  ) : (
                    none("unknown")
                  )}
                </Td>
              </tr>
            );
          })}
        </Table>
      )}
    </Section>
  );
}
