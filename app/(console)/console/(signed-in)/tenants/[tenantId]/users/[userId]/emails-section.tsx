import type { EmailRow } from "@/lib/db/schema";
import { Badge, EmptyState, Table, Td, Time } from "@/components/console/ui";
import { AddEmailForm, MakePrimaryButton, RemoveEmailButton } from "./email-controls";
import { Section } from "./section";

/** The user's addresses: make one primary, remove one (never the primary), add one. */
export function EmailsSection({
  tenantId,
  userId,
  emails,
  canWrite,
}: {
  tenantId: string;
  userId: string;
  emails: EmailRow[];
  canWrite: boolean;
}) {
  return (
    <Section title="Emails" count={emails.length}>
      {emails.length === 0 ? (
        <EmptyState title="No email addresses" description="This user signs in with a username." />
      ) : (
        <Table
          caption="Email addresses"
          head={["Address", "Status", "Added", ...(canWrite ? ["Actions"] : [])]}
        >
          {emails.map((email) => (
            <tr key={email.id} data-testid="email-row">
              <Td className="break-all">{email.address}</Td>
              <Td>
                <span className="flex flex-wrap gap-1">
                  {email.isPrimary ? <Badge tone="indigo">primary</Badge> : null}
                  {email.verified ? (
                    <Badge tone="green">verified</Badge>
                  ) : (
                    <Badge tone="amber">unverified</Badge>
                  )}
                </span>
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={email.createdAt} />
              </Td>
              {canWrite ? (
                <Td>
                  {email.isPrimary ? null : (
                    <span className="flex flex-wrap gap-2">
                      <MakePrimaryButton
                        tenantId={tenantId}
                        userId={userId}
                        emailId={email.id}
                        address={email.address}
                      />
                      <RemoveEmailButton
                        tenantId={tenantId}
                        userId={userId}
                        emailId={email.id}
                        address={email.address}
                      />
                    </span>
                  )}
                </Td>
              ) : null}
            </tr>
          ))}
        </Table>
      )}
      {canWrite ? <AddEmailForm tenantId={tenantId} userId={userId} /> : null}
    </Section>
  );
}
