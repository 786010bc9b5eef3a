import { randomBytes } from "node:crypto";

/**
 * Ending the pool's connections to a server that no longer takes writes. postgres.js checks
 * `target_session_attrs` only when it opens a connection and has no way to end one connection of its
 * pool, so a connection to a primary made read-only (fenced by a failover tool) would answer every write
 * `25006` until it is recycled. When a statement meets `25006`, each host of DATABASE_URL is asked, on a
 * connection of its own, to end this process's connections if it is read-only (in recovery, or
 * `transaction_read_only` on): `pg_terminate_backend` of backends with the pool's `application_name`,
 * which a role may do to its own backends. postgres.js then reconnects them, each to the next host of
 * the URL first. At most one such sweep at a time, and one per second.
 */

/** The pool's `application_name`: this process's connections, told apart from other instances'. */
export function poolApplicationName(): string {
  return `sesame/${process.pid}/${randomBytes(3).toString("hex")}`;
}

const SWEEP_INTERVAL_MS = 1000;

/** The URL without `target_session_attrs` (a probe must reach the host it names, read-only or not). */
function withoutSessionAttributes(url: string): string {
  return url.replace(/([?&])target_session_attrs=[^&]*(&|$)/, (_, before: string, after: string) =>
    after ? before : "",
  );
}

export interface PoolHosts {
  host: string[];
  port: number[];
}

/** The sweep, debounced: call it at every `25006`; resolves with the connections ended. */
export function readOnlySweeper(
  url: string,
  hosts: PoolHosts,
  applicationName: string,
): () => Promise<number> {
  let running: Promise<number> | undefined;
  let last = 0;
  return () => {
    if (running) return running;
    if (performance.now() - last < SWEEP_INTERVAL_MS) return Promise.resolve(0);
    last = performance.now();
    running = sweep(withoutSessionAttributes(url), hosts, applicationName).finally(() => {
      running = undefined;
    });
    return running;
  };
}

async function sweep(url: string, hosts: PoolHosts, applicationName: string): Promise<number> {
  const { default: postgres } = await import("postgres");
  const ended = await Promise.all(
    hosts.host.map(async (host, i) => {
      const probe = postgres(url, {
        host,
        port: hosts.port[i],
        max: 1,
        connect_timeout: 2,
        onnotice: () => {},
        connection: { application_name: "sesame read-only check" },
      });
      try {
        const rows = await probe<{ ended: boolean }[]>`
          select pg_terminate_backend(pid) as ended from pg_stat_activity
          where application_name = ${applicationName}
            and (pg_is_in_recovery() or current_setting('transaction_read_only') = 'on')`;
        return rows.filter((row) => row.ended).length;
      } catch {
        // A host that is down has no connection of ours to end.
        return 0;
      } finally {
        await probe.end({ timeout: 1 });
      }
    }),
  );
  return ended.reduce((sum, n) => sum + n, 0);
}
