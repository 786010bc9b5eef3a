import type { Metadata } from "next";
import Link from "next/link";
import { requireOperator } from "@/lib/console/guard";
import { canSeeTenant } from "@/lib/operators";
import { listTenants } from "@/lib/tenants";
import { ButtonLink, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";

export const metadata: Metadata = { title: "Tenants" };

/** The tenants the operator may see (owner: all; admin and viewer: the granted ones). */
export default async function TenantsPage() {
  const { operator } = await requireOperator("read");
  const tenants = (await listTenants()).filter((tenant) => canSeeTenant(operator, tenant.id));
  const isOwner = operator.role === "owner";
  const create = isOwner ? <ButtonLink href="/console/tenants/new">Create tenant</ButtonLink> : null;
  return (
    <>
      <PageHeader
        title="Tenants"
        description={
          isOwner
            ? "Every tenant of this Sesame: its relying party, users, keys and settings."
            : "The tenants an owner granted you."
        }
        actions={tenants.length > 0 ? create : null}
      />
      {tenants.length === 0 ? (
        <EmptyState
          title="No tenants yet"
          description={
            isOwner
              ? "A tenant is one application with its own users, passkeys and API keys. Create one to start."
              : "No tenant has been granted to you yet: ask an owner to grant you one."
          }
          action={create}
        />
      ) : (
        <Table caption="Tenants" head={["Name", "Tenant ID", "RP ID", "Created"]}>
          {tenants.map((tenant) => (
            <tr key={tenant.id}>
              <Td>
                <Link
                  href={`/console/tenants/${tenant.id}/overview`}
                  className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                >
                  {tenant.name}
                </Link>
              </Td>
              <Td>
                <code className="text-xs whitespace-nowrap">{tenant.id}</code>
              </Td>
              <Td>{tenant.rpId}</Td>
              <Td className="whitespace-nowrap">
                <Time value={tenant.createdAt} />
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
