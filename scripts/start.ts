/**
 * `npm start`, first half: check the configuration and build when the sources changed, then exit. The
 * npm script then `exec`s `node scripts/server.mjs` (the first-party server, so the client IP comes
 * from the socket), which replaces the shell: one server process, no launcher left waiting. The server
 * opens and migrates the database, seeds the demo tenant on first run and prints where it is.
 *
 * The script puts `--max-old-space-size=256` in front of NODE_OPTIONS for the server: V8 sizes its old
 * generation from the machine's memory (4 GB on 24 GB) and lets a busy server pile up garbage before
 * collecting; the live heap is ≈ 45 MB, so 256 MB bounds the peak with room to spare (docs/memory.md).
 * A NODE_OPTIONS of the operator's own comes after it and wins. It also sets MALLOC_ARENA_MAX=2 unless
 * the operator set it: glibc gives each thread that allocates an arena of its own, and the arenas of
 * libuv's and V8's threads held 60–70 MB more under load (docs/memory.md).
 *
 * `npm run build` writes the same fingerprint, so the `npm start` after it does not build again; while
 * a server runs from this folder, an out-of-date build is refused rather than rebuilt under it.
 */
import { ConfigError, parseConfig } from "@/lib/config/env";
import { buildIfNeeded } from "./lib/build";

try {
  parseConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`\nSesame could not start.\n${error.message}\n\n`);
  process.exit(1);
}

if (!buildIfNeeded()) {
  process.stderr.write("\nThe build did not complete; see the messages above.\n");
  process.exit(1);
}
