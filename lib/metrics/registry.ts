import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { databaseWork, withTimeout } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { probeDatabase } from "./database";

/**
 * The process's metrics: one prom-client Registry and its metrics, kept on globalThis like the
 * database (lib/db): Next.js evaluates instrumentation and each route bundle separately, and each may
 * carry its own copy of this module (and of prom-client), but a scrape must see every request.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"surface" | "method" | "route" | "status">;
  httpDuration: Histogram<"surface" | "method" | "route" | "status">;
  ceremonies: Counter<"kind" | "outcome">;
  webhookDeliveries: Counter<"outcome">;
  webhookQueueDepth: Gauge;
  webhookOldestPending: Gauge;
  databaseUp: Gauge;
  databasePoolMax: Gauge;
  databaseConnections: Gauge<"state">;
  databaseInFlight: Gauge;
  databaseFailures: Counter<"reason">;
  requestsInFlight: Gauge;
  requestsShed: Counter;
}

/** scripts/server.mjs's admission control (absent when another server runs the app, as in tests). */
const ADMISSION = Symbol.for("sesame.admission");
function admission(): { inFlight: () => number; shed: () => number; max: number } | undefined {
  return (globalThis as { [ADMISSION]?: ReturnType<typeof admission> })[ADMISSION];
}

/** Collect-time callbacks the metrics call on each scrape; set by the modules that own the data. */
export interface Probes {
  webhookQueue?: () => Promise<{ depth: number; oldestPendingSeconds: number }>;
  /** Scrapes begun so far: a probe's result is shared within one. */
  scrapes: number;
}

const KEY = Symbol.for("sesame.metrics");
const PROBES = Symbol.for("sesame.metricsProbes");
type Holder = { [KEY]?: Metrics; [PROBES]?: Probes };
const holder = globalThis as Holder;

/** The probes the gauges call at scrape time (shared across bundles, like the metrics). */
export function probes(): Probes {
  holder[PROBES] ??= { scrapes: 0 };
  return holder[PROBES];
}

/** Marks the start of a scrape: probes run afresh for it (renderMetrics calls this). */
export function beginScrape(): void {
  probes().scrapes += 1;
}

/**
 * One call to a probe per scrape: the registry collects every metric in parallel, and several gauges
 * read the same probe. A result is shared within one scrape, and for a second at most.
 */
function shared<T>(load: () => Promise<T>): () => Promise<T> {
  let last: { scrape: number; at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    const scrape = probes().scrapes;
    if (!last || last.scrape !== scrape || now - last.at > 1000) {
      last = { scrape, at: now, value: load() };
    }
    return last.value;
  };
}

function create(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // process_* and nodejs_*: the standard names, so ready-made Node.js dashboards work unchanged.
  collectDefaultMetrics({ register: registry });

  const webhookQueue = shared(() =>
    safely("webhook queue", async () => {
      const probe = probes().webhookQueue;
      return probe ? await withTimeout(probe(), 2000, "The webhook queue probe") : undefined;
    }),
  );

  const database = shared(probeDatabase);

  return {
    registry,
    httpRequests: new Counter({
      name: "sesame_http_requests_total",
      help: "HTTP requests answered by Sesame's API routes, by surface, method, route template and status",
      labelNames: ["surface", "method", "route", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "sesame_http_request_duration_seconds",
      help: "Time from a request reaching its API route to the response being ready (before the body streams)",
      labelNames: ["surface", "method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    ceremonies: new Counter({
      name: "sesame_ceremonies_total",
      help: "Authentication ceremonies ended, by kind and outcome (from the audit events)",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "sesame_webhook_deliveries_total",
      help: "Webhook delivery attempts, by outcome",
      labelNames: ["outcome"],
      registers,
    }),
    webhookQueueDepth: new Gauge({
      name: "sesame_webhook_queue_depth",
      help: "Webhook deliveries waiting to be sent (all tenants, all instances); NaN when unknown",
      registers,
      async collect() {
        const queue = await webhookQueue();
        this.set(queue ? queue.depth : Number.NaN);
      },
    }),
    webhookOldestPending: new Gauge({
      name: "sesame_webhook_oldest_pending_seconds",
      help: "Age of the oldest webhook delivery waiting to be sent, in seconds (0 when none waits); NaN when unknown",
      registers,
      async collect() {
        const queue = await webhookQueue();
        this.set(queue ? queue.oldestPendingSeconds : Number.NaN);
      },
    }),
    databaseUp: new Gauge({
      name: "sesame_database_up",
      help: "1 when the database answered the scrape's probe within 2 s, else 0",
      registers,
      async collect() {
        this.set((await database()).up ? 1 : 0);
      },
    }),
    databasePoolMax: new Gauge({
      name: "sesame_database_pool_max_connections",
      help: "Connections this process may open: the postgres.js pool size, 1 for the embedded PGlite",
      registers,
      async collect() {
        const { poolMax } = await database();
        this.set(poolMax ?? Number.NaN);
      },
    }),
    databaseConnections: new Gauge({
      name: "sesame_database_connections",
      help:
        "Postgres only: client connections to Sesame's database by state (active, idle, idle in transaction, …), " +
        "as pg_stat_activity reports them: every instance sharing the database, this scrape's own excluded",
      labelNames: ["state"],
      registers,
      async collect() {
        const { connections } = await database();
        this.reset();
        for (const [state, count] of Object.entries(connections ?? {})) this.set({ state }, count);
      },
    }),
    databaseInFlight: new Gauge({
      name: "sesame_database_statements_in_flight",
      help:
        "Postgres only: statements and transactions of this process waiting for the pool or the server; " +
        "above the pool's size they queue (the pool is saturated)",
      registers,
      collect() {
        this.set(databaseWork().inFlight);
      },
    }),
    databaseFailures: new Counter({
      name: "sesame_database_failures_total",
      help:
        "Postgres only: statements failed as database unavailable (answered 503), by reason: unavailable " +
        "(all, the database away or the deadline passed), deadline (the request's deadline passed), retried " +
        "(sent a second time because the first attempt never reached the server), shed (refused at once: too " +
        "many statements queued)",
      labelNames: ["reason"],
      registers,
      collect() {
        const work = databaseWork();
        this.reset();
        this.inc({ reason: "unavailable" }, work.unavailable);
        this.inc({ reason: "deadline" }, work.deadlineExceeded);
        this.inc({ reason: "retried" }, work.retried);
        this.inc({ reason: "shed" }, work.shed);
      },
    }),
    requestsInFlight: new Gauge({
      name: "sesame_http_requests_in_flight",
      help: "HTTP requests this process is answering now (SESAME_MAX_REQUESTS_IN_FLIGHT bounds them)",
      registers,
      collect() {
        this.set(admission()?.inFlight() ?? Number.NaN);
      },
    }),
    requestsShed: new Counter({
      name: "sesame_http_requests_shed_total",
      help: "HTTP requests refused at once with 503 because SESAME_MAX_REQUESTS_IN_FLIGHT were in flight",
      registers,
      collect() {
        this.reset();
        this.inc(admission()?.shed() ?? 0);
      },
    }),
  };
}

/** A probe's failure (or 2 s without an answer) is logged and its gauges read NaN; the scrape goes on. */
async function safely<T>(what: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    getLogger().warn({ err: error }, `metrics: the ${what} probe failed`);
    return undefined;
  }
}

/** The process's metrics, created on first use. */
export function metrics(): Metrics {
  holder[KEY] ??= create();
  return holder[KEY];
}
