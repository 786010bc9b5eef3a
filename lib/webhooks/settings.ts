import { getConfig } from "@/lib/config";

/** How deliveries are retried and timed; tests shorten these with {@link configureWebhooks}. */
export interface WebhookSettings {
  /** Delay after each failed attempt; after the last, the delivery fails. */
  retrySchedule: number[];
  /** ± this share of each delay, at random. */
  jitter: number;
  /** Whole request (connect, send, response head and the first 2 KiB) within this. */
  timeoutMs: number;
  /** How long a claim holds a delivery; past it another worker may claim it again. */
  leaseMs: number;
  /** An endpoint failing for this long without a success is disabled. */
  disableAfterMs: number;
  /** See `SESAME_WEBHOOKS_ALLOW_PRIVATE`. */
  allowPrivate: boolean;
  /** A callback's DNS lookup (A and AAAA, in parallel) must answer within this. */
  dnsTimeoutMs: number;
  /** DNS servers to ask (`host` or `host:port`); undefined: the system's (tests point this at a fake). */
  dnsServers?: string[] | undefined;
  /** Deliveries of one tenant in flight at most, over all workers (one slow receiver cannot take all). */
  tenantConcurrency: number;
  /** Finished deliveries (and their attempts, then events left without deliveries) are swept after this. */
  retentionMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_RETRY_SCHEDULE = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

const KEY = Symbol.for("sesame.webhookSettings");
type Holder = { [KEY]?: Partial<WebhookSettings> };
const holder = globalThis as Holder;

export function webhookSettings(): WebhookSettings {
  return {
    retrySchedule: DEFAULT_RETRY_SCHEDULE,
    jitter: 0.2,
    timeoutMs: 10 * SECOND,
    leaseMs: 60 * SECOND,
    disableAfterMs: 5 * 24 * HOUR,
    allowPrivate: getConfig().webhooksAllowPrivate,
    dnsTimeoutMs: 3 * SECOND,
    tenantConcurrency: 16,
    retentionMs: 30 * 24 * HOUR,
    ...holder[KEY],
  };
}

/** Overrides settings for this process (tests, tools); `undefined` restores the defaults. */
export function configureWebhooks(overrides: Partial<WebhookSettings> | undefined): void {
  holder[KEY] = overrides;
}

/** The delay before the next attempt after `attempts` failed ones, or undefined when they are used up. */
export function retryDelay(attempts: number, settings = webhookSettings()): number | undefined {
  const base = settings.retrySchedule[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + (Math.random() * 2 - 1) * settings.jitter));
}
