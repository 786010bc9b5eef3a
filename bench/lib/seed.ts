/**
 * Bulk data for `npm run bench:scale`, written by SQL straight into Sesame's tables (no HTTP, no Sesame
 * module): users with one passkey each, sessions and audit log rows. Each table is filled by one
 * `INSERT … SELECT` over `generate_series`, the fastest way Postgres offers short of COPY.
 *
 * The rows look like real ones where the login's statements or the indexes could notice: credential ids
 * are 32 random bytes (base64url, unique per tenant as the primary key demands), public keys are
 * COSE EC2 P-256 keys of the real shape (77 bytes) with random coordinates, creation times are spread
 * over two years. Sessions do not expire and audit rows are younger than the default 90-day retention,
 * so the server's background sweeps do not delete them in the middle of a measurement.
 */
import postgres from "postgres";

export type Sql = postgres.Sql;

/** A connection of its own for seeding, EXPLAIN and settings (not the server's pool). */
export function connect(url: string): Sql {
  return postgres(url, { max: 1, onnotice: () => {} });
}

/** base64url without padding of a bytea expression (encode() wraps lines at 76 characters). */
const base64url = (bytes: string) => `rtrim(translate(encode(${bytes}, 'base64'), E'+/\\n', '-_'), '=')`;

/** 32 uniformly random bytes (SHA-256 of a random UUID: no fixed version bits). */
const random32 = "sha256(uuid_send(gen_random_uuid()))";

/** COSE_Key map of an ES256 key: kty EC2, alg -7, crv P-256, x and y (RFC 9053), 77 bytes in all. */
const coseP256 = `'\\xa5010203262001215820'::bytea || ${random32} || '\\x225820'::bytea || ${random32}`;

/** AAGUIDs of common passkey providers (iCloud Keychain, Google Password Manager, Windows Hello, none). */
const AAGUIDS = [
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
  "08987058-cadc-4b81-b6e1-30de50dcbe96",
  "00000000-0000-0000-0000-000000000000",
];
const aaguidArray = `ARRAY[${AAGUIDS.map((a) => `'${a}'`).join(", ")}]`;

/**
 * Runs `work` in one transaction with foreign-key triggers off (the rows are consistent by
 * construction) and the indexes of `tables` built afterwards: sorting 10 million keys once is several
 * times faster than inserting them one by one into a B-tree far larger than shared_buffers. Indexes
 * that another table's foreign key depends on stay (dropping them would drop those keys). Each index
 * is recreated from its own definition, under its own name; a failure rolls everything back.
 */
async function bulkInsert<T>(
  sql: Sql,
  tables: string[],
  work: (tx: postgres.TransactionSql) => Promise<T>,
): Promise<T> {
  return (await sql.begin(async (tx) => {
    // `replica` skips the FK triggers of every row: checking 10 million references one by one would
    // take longer than the inserts. The statements below only reference rows that exist.
    await tx.unsafe("set local session_replication_role = replica");
    await tx.unsafe("set local maintenance_work_mem = '1GB'");
    await tx.unsafe("set local work_mem = '256MB'");
    const definitions = await tx<
      {
        table: string;
        index: string;
        definition: string;
        constraint: string | null;
        constraintDefinition: string | null;
      }[]
    >`
      select t.relname as table, i.relname as index, pg_get_indexdef(i.oid) as definition,
             c.conname as constraint, pg_get_constraintdef(c.oid) as "constraintDefinition"
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      left join pg_constraint c on c.conindid = i.oid and c.conrelid = t.oid
      where t.relname in ${tx(tables)} and t.relnamespace = 'public'::regnamespace
        and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = i.oid)`;
    for (const ix of definitions) {
      await tx.unsafe(
        ix.constraint
          ? `alter table "${ix.table}" drop constraint "${ix.constraint}"`
          : `drop index "${ix.index}"`,
      );
    }
    const result = await work(tx);
    for (const ix of definitions) {
      await tx.unsafe(
        ix.constraint
          ? `alter table "${ix.table}" add constraint "${ix.constraint}" ${ix.constraintDefinition}`
          : ix.definition,
      );
    }
    return result;
  })) as T;
}

/**
 * Users `from`..`to` (inclusive) of the tenant, each with one discoverable passkey, in one statement
 * (the users' INSERT feeds the credentials' INSERT). External ids are `seed-<n>`, so they never clash
 * with the users the benchmark registers over HTTP.
 */
export async function seedUsers(sql: Sql, tenantId: string, from: number, to: number): Promise<number> {
  if (to < from) return 0;
  const rows = await bulkInsert(sql, ["users", "webauthn_credentials"], (tx) =>
    tx.unsafe(
      `with spread as (
         select g, now() - random() * interval '730 days' as created
         from generate_series($2::int, $3::int) g
       ),
       new_users as (
         insert into users (id, tenant_id, external_id, username, display_name, created_at, updated_at)
         select gen_random_uuid(), $1::uuid, 'seed-' || g, 'seed-' || g || '@example.com',
                'Seed user ' || g, created, created
         from spread
         returning id, created_at, external_id
       )
       insert into webauthn_credentials (
         tenant_id, id, user_id, name, public_key, sign_count, transports, aaguid, attestation_type,
         backup_eligible, backup_state, user_verified, is_mfa, created_at, last_used_at)
       select $1::uuid, ${base64url(random32)}, id, 'Passkey', ${base64url(coseP256)},
              0, '{internal,hybrid}', (${aaguidArray})[1 + (hashtext(external_id) & 3)], 'none',
              true, true, true, false, created_at, created_at + random() * (now() - created_at)
       from new_users`,
      [tenantId, from, to],
    ),
  );
  return rows.count;
}

/**
 * `count` sessions of the tenant's users (round robin over them, so about count ÷ users each), created
 * over the last 7 days, valid for 30 days.
 */
export async function seedSessions(sql: Sql, tenantId: string, count: number): Promise<number> {
  const [{ users } = { users: 0 }] = await sql<{ users: number }[]>`
    select count(*)::int as users from users where tenant_id = ${tenantId}`;
  if (users === 0 || count <= 0) return 0;
  const perUser = Math.ceil(count / users);
  const rows = await bulkInsert(sql, ["sessions"], (tx) =>
    tx.unsafe(
      `insert into sessions (tenant_id, user_id, amr, ip, user_agent, created_at, last_used_at, expires_at)
       select $1::uuid, s.id, '{passkey}', '198.51.100.' || (s.k * 37 % 250),
              'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
              s.created, s.created + random() * (now() - s.created), s.created + interval '30 days'
       from (
         -- random() in this select list runs once per row (a subquery with LIMIT is not flattened).
         select u.id, k, now() - random() * interval '7 days' as created
         from (select id from users where tenant_id = $1::uuid) u
         cross join generate_series(1, $2::int) k
         limit $3::int
       ) s`,
      [tenantId, perUser, count],
    ),
  );
  return rows.count;
}

/** The audit event types of passkey logins and registrations, the bulk of a passkey tenant's log. */
const AUDIT_TYPES = [
  "passkey.login.initialize",
  "passkey.login.finalize",
  "passkey.login.initialize",
  "passkey.login.finalize",
  "passkey.registration.initialize",
  "passkey.registration.finalize",
  "passkey.login.finalize.failed",
  "api_key.rejected",
];

/** `count` audit rows of the tenant over the last 80 days, in time order (as they would be written). */
export async function seedAuditLogs(sql: Sql, tenantId: string, count: number): Promise<number> {
  if (count <= 0) return 0;
  const types = `ARRAY[${AUDIT_TYPES.map((t) => `'${t}'`).join(", ")}]`;
  const rows = await bulkInsert(sql, ["audit_logs"], (tx) =>
    tx.unsafe(
      `insert into audit_logs (id, tenant_id, type, actor, ip, user_agent, request_id, details, created_at)
       select gen_random_uuid(), $1::uuid, (${types})[1 + g % ${AUDIT_TYPES.length}],
              gen_random_uuid()::text, '198.51.100.' || (g % 250),
              'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
              md5(g::text), jsonb_build_object('credential_id', md5((g * 7)::text)),
              now() - interval '80 days' * (1 - g::float8 / $2::int)
       from generate_series(1, $2::int) g`,
      [tenantId, count],
    ),
  );
  return rows.count;
}

/**
 * VACUUM ANALYZE of the tables written: fresh statistics for the planner, and the visibility map set,
 * so autovacuum does not start on them in the middle of the next measurement.
 */
export async function vacuumAnalyze(sql: Sql, tables: string[]): Promise<void> {
  for (const table of tables) await sql.unsafe(`vacuum (analyze) ${table}`);
}

/** Row counts and on-disk sizes (heap + indexes) of the tables the login touches or the seed fills. */
export async function tableSizes(
  sql: Sql,
  tables: string[],
): Promise<{ table: string; rows: number; pages: number; totalMb: number; indexMb: number }[]> {
  if (tables.length === 0) return [];
  const result = await sql<{ table: string; rows: string; pages: number; total: string; index: string }[]>`
    select c.relname as table, c.reltuples::bigint::text as rows, c.relpages as pages,
           pg_total_relation_size(c.oid)::text as total, pg_indexes_size(c.oid)::text as index
    from pg_class c where c.relname in ${sql(tables)} and c.relkind = 'r' order by c.relname`;
  return result.map((r) => ({
    table: r.table,
    rows: Math.max(0, Number(r.rows)),
    pages: r.pages,
    totalMb: Math.round(Number(r.total) / 2 ** 20),
    indexMb: Math.round(Number(r.index) / 2 ** 20),
  }));
}
