import { spawn, type ChildProcess } from "node:child_process";

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once `pattern` appears; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts a Sesame process (npm start's script, or plain `next start`) and collects what it prints. */
export function startProcess(command: string[], env: Record<string, string>): ServerProcess {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let text = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text)) {
            cleanup();
            resolve(text);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output:\n${text}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (listeners.has(check)) {
            cleanup();
            reject(new Error(`exited with ${code} before ${pattern}; output:\n${text}`));
          }
        });
        check();
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // The whole process group: npm start's script runs next start as a child.
      process.kill(-(child.pid as number), "SIGTERM");
      const timer = setTimeout(() => process.kill(-(child.pid as number), "SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const NEXT_START = (port: number) => [
  "node",
  "node_modules/next/dist/bin/next",
  "start",
  "--port",
  String(port),
];
export const NPM_START = ["node_modules/.bin/tsx", "scripts/start.ts"];
