import type { Metadata } from "next";
import Link from "next/link";
import { listUsers } from "@/lib/contracts/admin";
import { UUID } from "@/lib/contracts/admin/params";
import { requireTenant } from "@/lib/console/guard";
import { listAdminUsers } from "@/lib/accounts";
import {
  Badge,
  Button,
  Card,
  EmptyState,
  PageHeader,
  Pagination,
  Table,
  Td,
  Time,
  inputClass,
} from "@/components/console/ui";
import { CreateUserDialog } from "./create-user-dialog";

export const metadata: Metadata = { title: "Users" };

const PAGE_SIZES = [10, 20, 50, 100] as const;
const SORTS = { newest: "desc", oldest: "asc" } as const;

type Search = Record<string, string | string[] | undefined>;
type Presence = "with" | "without" | undefined;
const presence = (value: string | undefined): Presence =>
  value === "with" || value === "without" ? value : undefined;
const asFilter = (value: Presence) => (value === undefined ? undefined : value === "with");
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The URL's search, sort and paging as the admin API's `GET /users` query (the same zod schema): one box
 * for an id (exact), or a part of an address or a username (either may match). Values the schema
 * refuses fall back to the defaults, so a hand-edited URL never breaks the page.
 */
function listQuery(search: Search) {
  const q = (one(search.q) ?? "").trim().slice(0, 254);
  const sort = one(search.sort) === "oldest" ? "oldest" : "newest";
  const perPage = PAGE_SIZES.find((size) => String(size) === one(search.per_page)) ?? 20;
  const parsed = listUsers.query.safeParse({
    page: one(search.page),
    per_page: String(perPage),
    sort_direction: SORTS[sort],
    ...(q === "" ? {} : UUID.test(q) ? { user_id: q } : { email: q, username: q }),
  });
  const query = parsed.success
    ? parsed.data
    : listUsers.query.parse({ per_page: String(perPage), sort_direction: SORTS[sort] });
  const passkey = presence(one(search.passkey));
  const password = presence(one(search.password));
  return { q, sort, perPage, query, passkey, password };
}

export default async function UsersPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string }>;
  searchParams: Promise<Search>;
}) {
  const { tenantId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const { q, sort, perPage, query, passkey, password } = listQuery(await searchParams);
  const { users, total } = await listAdminUsers(tenant.id, {
    page: query.page,
    perPage: query.per_page,
    userIds: query.user_id,
    email: query.email,
    username: query.username,
    direction: query.sort_direction,
    passkey: asFilter(passkey),
    password: asFilter(password),
  });
  const filtered = Boolean(q || passkey || password);
  const base = `/console/tenants/${tenant.id}/users`;
  const canWrite = operator.role !== "viewer";

  return (
    <div className="space-y-6">
      <PageHeader
        title="Users"
        description="The tenant's platform users (Passkey API users are managed through the Passkey API)."
        actions={canWrite ? <CreateUserDialog tenantId={tenant.id} /> : undefined}
      />
      <Card>
        <form method="get" role="search" aria-label="Users" className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-[1_1_16rem] space-y-1">
            <label htmlFor="q" className="block text-sm font-medium text-slate-800 dark:text-slate-200">
              Search
            </label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={q}
              placeholder="Email, username or user id"
              className={inputClass}
            />
          </div>
          <div className="space-y-1">
            <label htmlFor="sort" className="block text-sm font-medium text-slate-800 dark:text-slate-200">
              Sort
            </label>
            <select id="sort" name="sort" defaultValue={sort} className={inputClass}>
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
            </select>
          </div>
          {(
            [
              ["passkey", "Passkey", passkey],
              ["password", "Password", password],
            ] as const
          ).map(([name, label, value]) => (
            <div key={name} className="space-y-1">
              <label htmlFor={name} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
                {label}
              </label>
              <select id={name} name={name} defaultValue={value ?? ""} className={inputClass}>
                <option value="">Any</option>
                <option value="with">With</option>
                <option value="without">Without</option>
              </select>
            </div>
          ))}
          <div className="space-y-1">
            <label
              htmlFor="per_page"
              className="block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Per page
            </label>
            <select id="per_page" name="per_page" defaultValue={String(perPage)} className={inputClass}>
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary">
            Search
          </Button>
          {filtered ? (
            <Link href={base} className="py-2 text-sm text-indigo-700 underline dark:text-indigo-300">
              Clear
            </Link>
          ) : null}
        </form>
      </Card>

      {users.length === 0 ? (
        filtered ? (
          <EmptyState
            title={q ? `No users match “${q}”` : "No users match these filters"}
            description="Search by a part of an email address or username, or by a whole user id."
          />
        ) : total === 0 ? (
          <EmptyState
            title="No users yet"
            description="They appear when someone signs up through the flow API or you create one (Create user)."
          />
        ) : (
          <EmptyState
            title="No users on this page"
            description={<Link href={base}>Back to the first page</Link>}
          />
        )
      ) : (
        <div>
          <Table
            caption={`Users of ${tenant.name}`}
            head={["Email", "Name", "Last sign-in", "Passkeys", "Also"]}
          >
            {users.map(({ user, emails, credentials, password, otp }) => {
              const primary = emails.find((email) => email.isPrimary);
              const passkeys = credentials.filter((credential) => !credential.isMfa).length;
              const keys = credentials.length - passkeys;
              const label = primary?.address ?? user.username ?? user.id;
              return (
                <tr key={user.id} data-testid="user-row">
                  <Td className="break-all">
                    <span className="inline-flex flex-wrap items-center gap-2">
                      <Link
                        href={`${base}/${user.id}`}
                        className={
                          primary
                            ? "text-indigo-700 underline dark:text-indigo-300"
                            : "font-mono text-xs text-indigo-700 underline dark:text-indigo-300"
                        }
                      >
                        {label}
                      </Link>
                      {primary && !primary.verified ? <Badge tone="amber">unverified</Badge> : null}
                      {user.lockedAt ? <Badge tone="red">locked</Badge> : null}
                    </span>
                    {user.username && primary ? (
                      <span className="block text-xs text-slate-600 dark:text-slate-400">
                        {user.username}
                      </span>
                    ) : null}
                  </Td>
                  <Td>{user.name ?? <span className="text-slate-600 dark:text-slate-400">none</span>}</Td>
                  <Td className="whitespace-nowrap">
                    {user.lastSignInAt ? (
                      <Time value={user.lastSignInAt} />
                    ) : (
                      <span className="text-slate-600 dark:text-slate-400">never</span>
                    )}
                  </Td>
                  <Td>{passkeys}</Td>
                  <Td>
                    <span className="flex flex-wrap gap-1">
                      {password ? <Badge>password</Badge> : null}
                      {otp ? <Badge>authenticator app</Badge> : null}
                      {keys > 0 ? <Badge>security key</Badge> : null}
                    </span>
                  </Td>
                </tr>
              );
            })}
          </Table>
          <Pagination
            basePath={base}
            query={{
              q: q || undefined,
              passkey,
              password,
              sort: sort === "newest" ? undefined : sort,
              per_page: String(perPage),
            }}
            page={query.page}
            perPage={perPage}
            total={total}
          />
        </div>
      )}
    </div>
  );
}
