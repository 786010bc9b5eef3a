import { sweepExpiredAuditLogs } from "@/lib/audit";
import { startBackgroundTask } from "@/lib/background";
import { getConfig } from "@/lib/config";
import { getMasterSecret } from "@/lib/crypto";
import { getDatabase } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { consoleTenant, issueSetupLinkIfNeeded, sweepOperatorRecords } from "@/lib/operators";
import { queueBackchannelLogouts, sweepExpiredOpenidModels } from "@/lib/openid";
import { sweepExpiredSessions } from "@/lib/sessions";
import { sweepWebhookHistory } from "@/lib/webhooks";
import { metricsClosedWarning, registerWebhookQueueProbe, webhookDeliveries } from "@/lib/metrics";
import { banner, outboxWarning } from "./banner";
import { checkMasterSecret } from "./check-master-secret";
import { seedDemoTenant } from "./seed-demo-tenant";
import { registerShutdown } from "./shutdown";

export { shutdown } from "./shutdown";

/**
 * Start-up of the server process (called from instrumentation.ts): validate the configuration, open
 * and migrate the database, make sure the master secret exists, seed the demo tenant on first run and
 * print where everything is. Any failure here stops the process with a clear message.
 */
export async function boot(): Promise<void> {
  const started = performance.now();
  const config = getConfig();
  const database = await getDatabase();
  getMasterSecret();
  await checkMasterSecret();
  const { demo, created } = await seedDemoTenant();
  // The console's own tenant follows the base URL; on an empty database, the first owner's setup link.
  await consoleTenant();
  const setup = await issueSetupLinkIfNeeded({ replace: database.kind === "pglite" });
  getLogger().info(
    { database: database.kind, ms: Math.round(performance.now() - started) },
    "database open and migrated",
  );
  process.stdout.write(`${banner(config, demo, created, setup)}\n`);
  const outbox = outboxWarning(config);
  for (const warning of [outbox, metricsClosedWarning(config)]) {
    if (warning) getLogger().warn(warning.replace(/!!! /g, "").replace(/\n/g, " "));
  }
  startHousekeeping();
  registerShutdown();
  // Webhook deliveries: every instance runs a worker (SESAME_WEBHOOKS_WORKER).
  await startWebhooks();
}

/** boot(), and on failure a clear message on stderr and exit code 1 (a wrong setting, a locked data folder). */
export async function bootOrExit(): Promise<void> {
  try {
    await boot();
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`\nSesame could not start.\n${message}\n\n`);
    process.exit(1);
  }
}

/**
 * The webhook delivery worker of this process (every instance runs one), unless turned off by config,
 * and its metrics: the queue read at each scrape, each attempt's outcome counted.
 */
export async function startWebhooks(): Promise<void> {
  const { onWebhookOutcome, releaseDeadLeases, startWebhookWorker, webhookQueueStats } =
    await import("@/lib/webhooks");
  registerWebhookQueueProbe(webhookQueueStats);
  if (!getConfig().webhooksWorker) return;
  // The embedded database has one process at a time: leases found now are a dead process's.
  if ((await getDatabase()).kind === "pglite") await releaseDeadLeases();
  onWebhookOutcome((outcome) => webhookDeliveries.inc({ outcome }));
  startWebhookWorker();
}

const MINUTE = 60_000;

/**
 * What every instance sweeps in the background (unref'd timers, errors logged, safe beside other
 * instances): audit events past the tenant's retention, expired sessions (with their webhook events),
 * expired OpenID Provider models, ended sessions' back-channel logout tokens (queued in the webhook outbox),
 * webhook deliveries that ended 30 days ago.
 */
export function startHousekeeping(): void {
  startBackgroundTask({
    name: "audit log retention",
    firstDelayMs: 30_000,
    intervalMs: 10 * MINUTE,
    jitterMs: MINUTE,
    run: async () => (await sweepExpiredAuditLogs()).deleted,
  });
  startBackgroundTask({
    name: "expired sessions",
    firstDelayMs: 20_000,
    intervalMs: 5 * MINUTE,
    jitterMs: MINUTE,
    run: () => sweepExpiredSessions(),
  });
  startBackgroundTask({
    name: "expired OpenID Provider models",
    firstDelayMs: 25_000,
    intervalMs: 10 * MINUTE,
    jitterMs: MINUTE,
    run: () => sweepExpiredOpenidModels(),
  });
  startBackgroundTask({
    // Every few seconds: a client learns of a session's end within them (docs/openid-provider.md).
    name: "back-channel logout",
    firstDelayMs: 2_000,
    intervalMs: 2_000,
    jitterMs: 500,
    run: () => queueBackchannelLogouts(),
  });
  startBackgroundTask({
    name: "console sessions and links",
    firstDelayMs: 50_000,
    intervalMs: 30 * MINUTE,
    jitterMs: MINUTE,
    run: () => sweepOperatorRecords(),
  });
  startBackgroundTask({
    name: "webhook history",
    firstDelayMs: 40_000,
    intervalMs: 10 * MINUTE,
    jitterMs: MINUTE,
    run: async () => {
      const swept = await sweepWebhookHistory();
      return swept.deliveries + swept.events;
    },
  });
}
