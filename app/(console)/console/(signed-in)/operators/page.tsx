import type { Metadata } from "next";
import { requireOperator } from "@/lib/console/guard";
import { listOperators } from "@/lib/operators";
import { listTenants } from "@/lib/tenants";
import { Badge, Card, PageHeader, Table, Td, Time } from "@/components/console/ui";
import {
  EditOperatorButton,
  InviteOperatorButton,
  NewLinkButton,
  RemoveOperatorButton,
} from "./operators-client";

export const metadata: Metadata = { title: "Operators" };

const ROLE_TONE = { owner: "indigo", admin: "green", viewer: "neutral" } as const;

export default async function OperatorsPage() {
  const { operator: me } = await requireOperator("owner");
  const [operators, tenants] = await Promise.all([listOperators(), listTenants()]);
  const tenantOptions = tenants.map((tenant) => ({ id: tenant.id, name: tenant.name }));
  const tenantName = new Map(tenants.map((tenant) => [tenant.id, tenant.name]));

  return (
    <div className="space-y-6">
      <PageHeader
        title="Operators"
        description="The people who run this Sesame: owners see everything, admins manage the tenants granted to them, viewers only look (no secrets)."
        actions={<InviteOperatorButton tenants={tenantOptions} />}
      />
      <Card>
        <Table caption="Operators" head={["Email", "Role", "Tenants", "Created", "Last sign-in", "Actions"]}>
          {operators.map((operator) => (
            <tr key={operator.id} data-testid="operator-row">
              <Td className="font-medium text-slate-900 dark:text-white">
                {operator.email}
                {operator.id === me.id ? (
                  <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">(you)</span>
                ) : null}
              </Td>
              <Td>
                <Badge tone={ROLE_TONE[operator.role]}>{operator.role}</Badge>
              </Td>
              <Td>
                {operator.role === "owner" ? (
                  <span className="text-slate-600 dark:text-slate-400">all</span>
                ) : operator.tenantIds.length === 0 ? (
                  <span className="text-slate-600 dark:text-slate-400">none yet</span>
                ) : (
                  <ul className="space-y-0.5">
                    {operator.tenantIds.map((id) => (
                      <li key={id}>{tenantName.get(id) ?? id}</li>
                    ))}
                  </ul>
                )}
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={operator.createdAt} />
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={operator.lastSignInAt} />
              </Td>
              <Td>
                <div className="flex flex-wrap gap-2">
                  <EditOperatorButton
                    operator={{
                      id: operator.id,
                      email: operator.email,
                      role: operator.role,
                      tenantIds: operator.tenantIds,
                    }}
                    tenants={tenantOptions}
                  />
                  <NewLinkButton operatorId={operator.id} email={operator.email} />
                  <RemoveOperatorButton
                    operatorId={operator.id}
                    email={operator.email}
                    self={operator.id === me.id}
                  />
                </div>
              </Td>
            </tr>
          ))}
        </Table>
        {operators.length === 1 ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
            You are the only operator. Invite a colleague: they get a one-time link to register their passkey.
          </p>
        ) : null}
      </Card>
    </div>
  );
}
