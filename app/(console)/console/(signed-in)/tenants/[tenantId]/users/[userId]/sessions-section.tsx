import type { SessionRow } from "@/lib/db/schema";
import { userAgentName } from "@/lib/sessions";
import { Badge, EmptyState, Table, Td, Time } from "@/components/console/ui";
import { Section, none } from "./section";
import { RevokeAllSessionsButton, RevokeSessionButton } from "./user-actions";

/** The user's live sessions: where (IP, browser), when; revoke one or all. */
export function SessionsSection({
  tenantId,
  userId,
  sessions,
  canWrite,
}: {
  tenantId: string;
  userId: string;
  sessions: SessionRow[];
  canWrite: boolean;
}) {
  return (
    <Section
      title="Sessions"
      count={sessions.length}
      actions={
        canWrite && sessions.length > 0 ? (
          <RevokeAllSessionsButton tenantId={tenantId} userId={userId} />
        ) : undefined
      }
    >
      {sessions.length === 0 ? (
        <EmptyState title="No active sessions" description="The user is signed in nowhere." />
      ) : (
        <Table
          caption="Active sessions"
          head={[
            "IP address",
            "User agent",
            "Started",
            "Last seen",
            "Expires",
            ...(canWrite ? ["Actions"] : []),
          ]}
        >
          {sessions.map((session) => {
            const agent = session.userAgent ? userAgentName(session.userAgent) : undefined;
            return (
              <tr key={session.id} data-testid="session-row">
                <Td className="font-mono text-xs">{session.ip ?? none("unknown")}</Td>
                <Td>
                  <span title={session.userAgent ?? undefined}>{agent ?? none("unknown")}</span>
                  {session.impersonatedBy ? (
                    <span className="ml-2">
                      <Badge tone="amber">started by {session.impersonatedBy}</Badge>
                    </span>
                  ) : null}
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={session.createdAt} />
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={session.lastUsedAt} />
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={session.expiresAt} />
                </Td>
                {canWrite ? (
                  <Td>
                    <RevokeSessionButton
                      tenantId={tenantId}
                      userId={userId}
                      sessionId={session.id}
                      label={`${agent ?? "unknown client"} from ${session.ip ?? "an unknown address"}`}
                    />
                  </Td>
                ) : null}
              </tr>
            );
          })}
        </Table>
      )}
    </Section>
  );
}
