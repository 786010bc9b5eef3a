/**
 * The Sesame CLI: `npm run sesame -- <command>`. Works on both drivers: with DATABASE_URL on Postgres,
 * else on the embedded database in SESAME_DATA_DIR (which must not be in use by a running server).
 * The `authenticator` commands are the exception: they play the phone app over HTTP, keep their keys in
 * a local file and never open the database, so they run next to a server on the same data folder.
 */
import { runCli } from "./run";

process.env.SESAME_LOG_TO_STDERR = "1";
process.env.LOG_LEVEL ??= "warn";

// process.exit does not wait for output still queued to a pipe (a long `--json` listing would be cut off):
// exit once stdout and stderr have taken everything written before.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => stream.write("", () => resolve()));
void runCli(process.argv.slice(2)).then(async (code) => {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
});
