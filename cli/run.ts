/** The CLI's commands and how one command line runs (cli/sesame.ts is the process entry). */
import { parseArgs } from "node:util";
import { UAF_CLIENT_COMMANDS } from "./commands/uaf-client/commands";
import { backup, restore } from "./commands/backup";
import { keyCreate, keyList, keyRevoke } from "./commands/key";
import { operatorCreate, operatorList, operatorRecover, operatorRemove } from "./commands/operator";
import { signingKeyList, signingKeyRotate } from "./commands/signing-key";
import { OAUTH_CLIENT_COMMANDS } from "./commands/oauth-client";
import { samlAdd, samlList, samlRemove, samlUpdate } from "./commands/saml";
import { tenantCreate, tenantList, tenantUpdate } from "./commands/tenant";
import { THIRD_PARTY_COMMANDS } from "./commands/thirdparty";
import { USER_COMMANDS } from "./commands/user";
import type { Command } from "./commands/command";
import { UsageError } from "./output";

const COMMANDS: Command[] = [
  tenantCreate,
  tenantList,
  tenantUpdate,
  keyCreate,
  keyList,
  keyRevoke,
  signingKeyRotate,
  signingKeyList,
  operatorCreate,
  operatorList,
  operatorRemove,
  operatorRecover,
  ...USER_COMMANDS,
  ...THIRD_PARTY_COMMANDS,
  samlList,
  samlAdd,
  samlUpdate,
  samlRemove,
  ...OAUTH_CLIENT_COMMANDS,
  ...UAF_CLIENT_COMMANDS,
  backup,
  restore,
];

/**
 * Commands that must not open (or lock) the process database: those that speak HTTP only, and backup and
 * restore, which open the embedded folder themselves when they may.
 */
const WITHOUT_DATABASE = new Set<Command>([...UAF_CLIENT_COMMANDS, backup, restore]);

function help(): string {
  return [
    "Usage: npm run sesame -- <command> [options]",
    "",
    ...COMMANDS.flatMap((command) => [`  ${command.usage}`, `      ${command.description}`]),
    "",
    "Add --json for machine-readable output.",
    "The authenticator commands never open the database: they answer requests over HTTP at the link's",
    "origin and keep their keys in --file (default $SESAME_DATA_DIR/authenticator.json, i.e.",
    "./.data/authenticator.json; it holds private keys and is written with mode 0600).",
  ].join("\n");
}

async function main(argv: string[], keepDatabase: boolean): Promise<number> {
  const command = COMMANDS.find((c) => c.name === argv.slice(0, c.name.split(" ").length).join(" "));
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  if (!command || wantsHelp) {
    const ok = wantsHelp || argv.length === 0;
    (ok ? process.stdout : process.stderr).write(
      `${command ? `Usage: npm run sesame -- ${command.usage}` : help()}\n`,
    );
    return ok ? 0 : 2;
  }
  const { values, positionals } = parseArgs({
    args: argv.slice(command.name.split(" ").length),
    options: { ...command.options, json: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });

  // Imported late so that `--help`, usage errors and the authenticator commands never open the database.
  const { AppError } = await import("@/lib/errors");
  const { closeDatabase } = WITHOUT_DATABASE.has(command)
    ? { closeDatabase: async () => {} }
    : await import("@/lib/db");
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
    if (!keepDatabase) await closeDatabase();
  }
}

/**
 * Runs one command line: its exit code (0 done, 1 a domain error, 2 a usage error), output written to
 * process.stdout and process.stderr. `keepDatabase`: leave the process database open afterwards (tests run
 * commands in-process against their own database; the CLI process closes it).
 */
export async function runCli(argv: string[], options: { keepDatabase?: boolean } = {}): Promise<number> {
  try {
    return await main(argv, options.keepDatabase === true);
  } catch (error) {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    process.stderr.write(
      `${usage ? "Usage error" : "Error"}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    if (usage) process.stderr.write(`Run npm run sesame -- --help for the commands.\n`);
    return usage ? 2 : 1;
  }
}
