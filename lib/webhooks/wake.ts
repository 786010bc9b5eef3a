const KEY = Symbol.for("sesame.webhookWake");
type Holder = { [KEY]?: () => void };
const holder = globalThis as Holder;

/** Lets the running worker (if any in this process) poll soon after an emit instead of at its next tick. */
export function setWebhookWake(wake: (() => void) | undefined): void {
  holder[KEY] = wake;
}

export function wakeWebhookWorker(): void {
  holder[KEY]?.();
}
