/**
 * The Sesame CLI: `npm run sesame -- <command>`. Works on both drivers: with DATABASE_URL on Postgres,
 * else on the embedded database in SESAME_DATA_DIR (which must not be in use by a running server).
 */
import { parseArgs } from "node:util";
import { keyCreate, keyList, keyRevoke } from "./commands/key";
import { signingKeyList, signingKeyRotate } from "./commands/signing-key";
import { tenantCreate, tenantList, tenantUpdate } from "./commands/tenant";
import type { Command } from "./commands/command";
import { UsageError } from "./output";

process.env.SESAME_LOG_TO_STDERR = "1";
process.env.LOG_LEVEL ??= "warn";

const COMMANDS: Command[] = [
  tenantCreate,
  tenantList,
  tenantUpdate,
  keyCreate,
  keyList,
  keyRevoke,
  signingKeyRotate,
  signingKeyList,
];

function help(): string {
  return [
    "Usage: npm run sesame -- <command> [options]",
    "",
    ...COMMANDS.flatMap((command) => [`  ${command.usage}`, `      ${command.description}`]),
    "",
    "Add --json for machine-readable output.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const command = COMMANDS.find((c) => c.name === argv.slice(0, 2).join(" "));
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  if (!command || wantsHelp) {
    const ok = wantsHelp || argv.length === 0;
    (ok ? process.stdout : process.stderr).write(
      `${command ? `Usage: npm run sesame -- ${command.usage}` : help()}\n`,
    );
    return ok ? 0 : 2;
  }
  const { values, positionals } = parseArgs({
    args: argv.slice(2),
    options: { ...command.options, json: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });

  // Imported late so that `--help` and usage errors never open the database.
  const { AppError } = await import("@/lib/errors");
  const { closeDatabase } = await import("@/lib/db");
  try {
    await command.run({ values, positionals, json: (values as Record<string, unknown>).json === true });
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(`Error: ${error.message}\n${error.details.map((d) => `  ${d}\n`).join("")}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    process.stderr.write(
      `${usage ? "Usage error" : "Error"}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    if (usage) process.stderr.write(`Run npm run sesame -- --help for the commands.\n`);
    process.exit(usage ? 2 : 1);
  },
);
