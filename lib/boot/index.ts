import { getConfig } from "@/lib/config";
import { getMasterSecret } from "@/lib/crypto";
import { getDatabase } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { banner, outboxWarning } from "./banner";
import { checkMasterSecret } from "./check-master-secret";
import { seedDemoTenant } from "./seed-demo-tenant";

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
  getLogger().info(
    { database: database.kind, ms: Math.round(performance.now() - started) },
    "database open and migrated",
  );
  process.stdout.write(`${banner(config, demo, created)}\n`);
  const outbox = outboxWarning(config);
  if (outbox) getLogger().warn(outbox.replace(/!!! /g, "").replace(/\n/g, " "));
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

/** The webhook delivery worker of this process (every instance runs one), unless turned off by config. */
export async function startWebhooks(): Promise<void> {
  if (!getConfig().webhooksWorker) return;
  const { startWebhookWorker } = await import("@/lib/webhooks");
  startWebhookWorker();
}
