import type { Metadata } from "next";
import { requireOperator } from "@/lib/console/guard";
import { passkeyProviderName } from "@/lib/credentials";
import { listOperatorPasskeys } from "@/lib/operators";
import { Badge, Card, Details, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";
import {
  AddPasskeyButton,
  PasskeyName,
  RemovePasskeyButton,
  SignOutEverywhereButton,
} from "./account-client";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const { operator } = await requireOperator("read");
  const passkeys = await listOperatorPasskeys(operator.id);
  const last = passkeys.length <= 1;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Your account"
        description="Your passkeys for the console and your console sessions."
      />
      <Card title="Operator">
        <Details
          items={[
            ["Email", operator.email],
            ["Role", operator.role],
            ["Last sign-in", <Time key="t" value={operator.lastSignInAt} />],
          ]}
        />
      </Card>
      <Card title="Passkeys">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
          <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-400">
            Keep at least two, on different devices or in a synced password manager, so losing one does not
            lock you out. An owner can also give you a new enrolment link.
          </p>
          <AddPasskeyButton />
        </div>
        {passkeys.length === 0 ? (
          <EmptyState
            title="No passkeys"
            description="Add one now: without a passkey you cannot sign in again."
          />
        ) : (
          <Table caption="Your passkeys" head={["Name", "Created", "Last used", "Backup", "Actions"]}>
            {passkeys.map((passkey) => {
              const provider = passkeyProviderName(passkey.aaguid);
              return (
                <tr key={passkey.id} data-testid="passkey-row">
                  <Td className="font-medium text-slate-900 dark:text-white">
                    <PasskeyName credentialId={passkey.id} name={passkey.name} />
                    {provider && provider !== passkey.name ? (
                      <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                        {provider}
                      </span>
                    ) : null}
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Time value={passkey.createdAt} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Time value={passkey.lastUsedAt} />
                  </Td>
                  <Td>
                    {passkey.backupState ? (
                      <Badge tone="green">Synced</Badge>
                    ) : passkey.backupEligible ? (
                      <Badge tone="amber">Not backed up yet</Badge>
                    ) : (
                      <Badge>This device only</Badge>
                    )}
                  </Td>
                  <Td>
                    {last ? (
                      <span className="text-xs text-slate-600 dark:text-slate-400">Your only passkey</span>
                    ) : (
                      <RemovePasskeyButton credentialId={passkey.id} name={passkey.name} />
                    )}
                  </Td>
                </tr>
              );
            })}
          </Table>
        )}
      </Card>
      <Card title="Sessions">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-400">
            A console session lasts 12 hours at most and ends after 30 minutes without a request. Lost a
            device, or signed in on a shared computer? End every session, this one included.
          </p>
          <SignOutEverywhereButton />
        </div>
      </Card>
    </div>
  );
}
