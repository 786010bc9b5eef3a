import { spawn, type ChildProcess } from "node:child_process";

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once `pattern` appears; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts a Sesame process (`npm start`, or Sesame's server alone) and collects what it prints. */
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
      // The whole process group: npm start runs the server as a child of npm.
      process.kill(-(child.pid as number), "SIGTERM");
      const timer = setTimeout(() => process.kill(-(child.pid as number), "SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Sesame's server alone (scripts/server.mjs, what npm start runs after its checks), on the PORT of the
 * environment: give it one, or it takes 3000. Never `next start`, which believes a client's own
 * X-Forwarded-For.
 */
export const SERVER = ["node", "scripts/server.mjs"];
/** `npm start` itself: configuration check, build when needed, then the server. */
export const NPM_START = ["npm", "start"];
