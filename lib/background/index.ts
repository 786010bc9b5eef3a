import { getLogger } from "@/lib/log";

/**
 * Housekeeping every instance runs on its own (retention sweeps and the like): each task is safe when
 * several instances run it at once, and keeps no state between runs, so nothing another instance needs
 * sits in memory.
 */
export interface BackgroundTask {
  /** Names the task in logs, and keeps it to one timer per process. */
  name: string;
  /** Between the end of one run and the start of the next. */
  intervalMs: number;
  /** Before the first run (after start-up's own work). */
  firstDelayMs: number;
  /** Up to this much is added to every delay, so instances started together drift apart. */
  jitterMs?: number;
  /** One run; what it returns is logged at info level when it reports work done (a count above 0). */
  run: () => Promise<number>;
}

const TASKS = Symbol.for("sesame.backgroundTasks");
type Holder = { [TASKS]?: Map<string, () => void> };

/**
 * Runs `task` in the background of this process on an unref'd timer (it never keeps the process alive).
 * A failed run is logged, never thrown; the next run is scheduled either way. Started once per name and
 * process (later calls return the running task's stop function); the returned function stops it.
 */
export function startBackgroundTask(task: BackgroundTask): () => void {
  const holder = globalThis as Holder;
  const running = (holder[TASKS] ??= new Map());
  const existing = running.get(task.name);
  if (existing) return existing;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => void run(), delayMs + Math.random() * (task.jitterMs ?? 0));
    timer.unref();
  };
  const run = async () => {
    try {
      const done = await task.run();
      if (done > 0) getLogger().info({ task: task.name, done }, "background task done");
    } catch (error) {
      getLogger().error({ err: error, task: task.name }, "background task failed");
    } finally {
      if (!stopped) schedule(task.intervalMs);
    }
  };
  schedule(task.firstDelayMs);
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    running.delete(task.name);
  };
  running.set(task.name, stop);
  return stop;
}

/** Stops every background task of this process (shutdown); a run in progress finishes on its own. */
export function stopBackgroundTasks(): void {
  const running = (globalThis as Holder)[TASKS];
  for (const stop of [...(running?.values() ?? [])]) stop();
}
