/**
 * `backup` and `restore` of the embedded database (docs/operations.md, Backups). Neither opens the
 * process database: `backup` asks the server that holds the data folder for a copy over its socket
 * (lib/db/backup.ts) and opens the folder itself only when no process holds it; `restore` writes a new
 * folder and refuses one in use or not empty. Postgres has its own tools (pg_dump, PITR).
 */
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { backupSocketPath, DatabaseLocked, lockHolder, openDatabase, requestBackup } from "@/lib/db";
import { printJson, UsageError } from "../output";
import type { Command } from "./command";

const MASTER_KEY_FILE = "master.key";

/** A refusal (exit code 1): the folder is in use, holds a database, or the setting is Postgres. */
class Refused extends Error {
  override name = "Refused";
}

/** The embedded database's folder inside a data folder (as lib/db opens it). */
const databaseDirOf = (dataDir: string) => path.join(dataDir, "pglite");

function refusePostgres(what: string): void {
  if (getConfig().databaseUrl) {
    throw new Refused(
      `DATABASE_URL is set: ${what} covers the embedded database only. For Postgres use pg_dump / ` +
        `pg_restore or point-in-time recovery (docs/operations.md, Backups).`,
    );
  }
}

/** Writes `data` to `file` (mode 0600) through a temporary file, so a failed write leaves no half file. */
function writeAtomically(file: string, data: Buffer | string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** A copy from the server that holds the folder, else from the folder itself (no process holds it). */
async function embeddedArchive(dataDir: string): Promise<{ archive: Buffer; from: "server" | "folder" }> {
  const databaseDir = databaseDirOf(dataDir);
  const fromServer = await requestBackup(backupSocketPath(databaseDir));
  if (fromServer) return { archive: fromServer, from: "server" };
  if (!fs.existsSync(path.join(databaseDir, "PG_VERSION"))) {
    throw new Refused(`There is no embedded database in ${dataDir} (SESAME_DATA_DIR).`);
  }
  let database;
  try {
    database = await openDatabase({ kind: "pglite", dir: databaseDir, migrate: false });
  } catch (error) {
    if (error instanceof DatabaseLocked) {
      throw new Refused(
        `${error.message} It did not answer the backup request on ${backupSocketPath(databaseDir)}: ` +
          `stop it, then run the backup again.`,
      );
    }
    throw error;
  }
  try {
    return { archive: await database.dump!(), from: "folder" };
  } finally {
    await database.close();
  }
}

export const backup: Command = {
  name: "backup",
  usage: "backup --out <file> [--include-master-key] [--json]",
  description:
    "Write a consistent copy of the embedded database (SESAME_DATA_DIR), also while the server runs. " +
    "The master secret is not in it; --include-master-key writes it to <file>.master.key.",
  options: { out: { type: "string" }, "include-master-key": { type: "boolean" } },
  async run({ values, json }) {
    if (typeof values.out !== "string" || values.out === "") throw new UsageError("--out <file> is required");
    refusePostgres("backup");
    const out = path.resolve(values.out);
    if (!fs.existsSync(path.dirname(out))) throw new UsageError(`The folder of ${out} does not exist.`);
    const config = getConfig();
    const started = performance.now();
    const { archive, from } = await embeddedArchive(config.dataDir);
    writeAtomically(out, archive);
    const ms = Math.round(performance.now() - started);

    let masterKey: string | undefined;
    if (values["include-master-key"] === true) {
      const keyFile = path.join(config.dataDir, MASTER_KEY_FILE);
      const secret = config.masterSecret ?? (fs.existsSync(keyFile) ? fs.readFileSync(keyFile, "utf8") : "");
      if (!secret.trim()) throw new Refused(`There is no master secret in ${keyFile} to include.`);
      masterKey = `${out}.master.key`;
      writeAtomically(masterKey, `${secret.trim()}\n`);
      process.stderr.write(
        `Warning: ${masterKey} holds the master secret. Whoever has it and the backup can sign sessions ` +
          `for any user: keep it apart from the backup (a secrets manager), never next to it in storage.\n`,
      );
    }
    if (json) return printJson({ file: out, bytes: archive.length, from, ms, masterKey: masterKey ?? null });
    process.stdout.write(
      `Backup of ${config.dataDir} written to ${out} (${archive.length} bytes, from the ` +
        `${from === "server" ? "running server" : "data folder"}, ${ms} ms).\n`,
    );
    if (!masterKey) {
      process.stdout.write(
        `The master secret is not in the backup: keep ${config.masterSecret ? "SESAME_MASTER_SECRET" : path.join(config.dataDir, MASTER_KEY_FILE)} ` +
          `safe apart from it; a restored database needs the same one.\n`,
      );
    }
  },
};

export const restore: Command = {
  name: "restore",
  usage: "restore --from <file> [--data-dir <dir>] [--master-key <file>] [--json]",
  description:
    "Restore a backup into a new data folder (default SESAME_DATA_DIR); refuses a folder in use or " +
    "holding a database. --master-key installs the master secret the backup was made with.",
  options: { from: { type: "string" }, "data-dir": { type: "string" }, "master-key": { type: "string" } },
  async run({ values, json }) {
    if (typeof values.from !== "string" || values.from === "") {
      throw new UsageError("--from <file> is required");
    }
    const dataDirOption = values["data-dir"];
    if (dataDirOption === undefined) refusePostgres("restore");
    const dataDir = path.resolve(typeof dataDirOption === "string" ? dataDirOption : getConfig().dataDir);
    const archive = path.resolve(values.from);
    if (!fs.existsSync(archive)) throw new Refused(`${archive} does not exist.`);

    const databaseDir = databaseDirOf(dataDir);
    const keyFile = path.join(dataDir, MASTER_KEY_FILE);
    let secret: string | undefined;
    if (typeof values["master-key"] === "string") {
      secret = fs.readFileSync(path.resolve(values["master-key"]), "utf8").trim();
      if (secret.length < 32) throw new Refused(`${values["master-key"]} is not a Sesame master secret.`);
      if (fs.existsSync(keyFile) && fs.readFileSync(keyFile, "utf8").trim() !== secret) {
        throw new Refused(`${keyFile} holds another master secret; restore into an empty folder.`);
      }
    }
    const holder = lockHolder(`${databaseDir}.lock`);
    if (holder !== undefined) {
      throw new Refused(
        `${databaseDir} is in use by a running Sesame (pid ${holder}): restore into another folder ` +
          `(--data-dir), never under a live server.`,
      );
    }
    if (fs.existsSync(databaseDir) && fs.readdirSync(databaseDir).length > 0) {
      throw new Refused(
        `${databaseDir} already holds a database: restore into an empty folder (--data-dir), never over ` +
          `one (stop Sesame and move the folder away first if you mean to replace it).`,
      );
    }

    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const started = performance.now();
    let database;
    try {
      // Takes the folder's lock (refused while a process holds it) and loads the archive; the
      // migrations of this version are applied, as a start would.
      database = await openDatabase({ kind: "pglite", dir: databaseDir, template: archive });
    } catch (error) {
      if (error instanceof DatabaseLocked) throw new Refused(error.message);
      // Leave no half-loaded folder behind (the lock refused nothing, so the folder is ours).
      fs.rmSync(databaseDir, { recursive: true, force: true });
      throw new Refused(
        `${archive} could not be restored: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await database.close();
    if (secret !== undefined) fs.writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
    const ms = Math.round(performance.now() - started);

    const hasKey = secret !== undefined || fs.existsSync(keyFile) || getConfig().masterSecret !== undefined;
    if (json) return printJson({ dataDir, ms, masterKey: hasKey });
    process.stdout.write(`Restored ${archive} into ${databaseDir} (${ms} ms).\n`);
    if (!hasKey) {
      process.stderr.write(
        `Warning: no master secret for it yet. Put the one the backup was made with in ${keyFile} ` +
          `(mode 0600) or set SESAME_MASTER_SECRET: Sesame refuses to start with another one.\n`,
      );
    }
  },
};
