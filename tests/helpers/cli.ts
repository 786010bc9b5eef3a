import { vi } from "vitest";
import { runCli } from "@/cli/run";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run sesame -- …args` run in this test process against the test file's database: the same command
 * table, parsing, output and exit codes as the CLI process (cli/sesame.ts only adds process.exit), without
 * the 3–5 s of CPU a fresh tsx process costs. A suite keeps one real process run to cover the entry.
 */
export async function sesameInProcess(...args: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const capture = (append: (text: string) => void) => (chunk: string | Uint8Array) => {
    append(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  };
  const out = vi
    .spyOn(process.stdout, "write")
    .mockImplementation(capture((text) => (stdout += text)) as never);
  const err = vi
    .spyOn(process.stderr, "write")
    .mockImplementation(capture((text) => (stderr += text)) as never);
  try {
    const code = await runCli(args, { keepDatabase: true });
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
