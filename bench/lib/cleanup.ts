/**
 * Cleanup that runs however the benchmark ends: normally, on an error, or on Ctrl-C / SIGTERM.
 * Actions run newest first; each runs once, and a failing action does not stop the others.
 */
type Action = () => void | Promise<void>;

const actions: { name: string; run: Action }[] = [];
let running: Promise<void> | undefined;
let signalled = false;

/** True once SIGINT/SIGTERM started the cleanup (errors from the interrupted work are then expected). */
export const interrupted = () => signalled;

/** Registers an action; the returned function runs it now and removes it from the list. */
export function onCleanup(name: string, run: Action): () => Promise<void> {
  const entry = { name, run };
  actions.push(entry);
  return async () => {
    const index = actions.indexOf(entry);
    if (index < 0) return;
    actions.splice(index, 1);
    await entry.run();
  };
}

export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (actions.length > 0) {
      const { name, run } = actions.pop()!;
      try {
        await run();
      } catch (error) {
        process.stderr.write(`cleanup (${name}) failed: ${error instanceof Error ? error.message : error}\n`);
      }
    }
  })();
  return running;
}

/**
 * On SIGINT/SIGTERM: clean up and exit with 128 + signal number. The handlers stay installed, so a
 * second signal (Ctrl-C reaches both tsx and this process, and tsx relays it) cannot cut cleanup short.
 */
export function cleanupOnSignals(): void {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      if (running) return;
      signalled = true;
      process.stderr.write(`\n${signal}: cleaning up …\n`);
      void cleanupAll().finally(() => process.exit(code));
    });
  }
}
