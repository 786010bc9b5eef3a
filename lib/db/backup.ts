import fs from "node:fs";
import net from "node:net";

/**
 * Backups of the embedded database (PGlite) while it is in use. One process at a time opens a PGlite
 * folder (lib/db/pglite-lock.ts), so the process that holds it makes the copy: it listens on a Unix
 * socket next to the folder's lock (`<data dir>/pglite.sock`, mode 0600, in the data folder, which is
 * 0700) and answers each request with a dump taken between two transactions. Only who may read the data
 * folder can connect. With no process holding the folder, the CLI opens it itself
 * (`npm run sesame -- backup`, cli/commands/backup.ts; docs/operations.md, Backups).
 */

/** The socket of the process that holds the embedded database in `databaseDir` (next to its lock). */
export function backupSocketPath(databaseDir: string): string {
  return `${databaseDir}.sock`;
}

/** The parts of a PGlite client a dump needs. */
export interface Dumpable {
  transaction<T>(work: (tx: { exec(query: string): Promise<unknown> }) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob>;
}

/**
 * A consistent copy of a PGlite database, as a gzipped tarball of its folder (what PGlite's
 * `loadDataDir` reads). Taken inside a transaction of its own: PGlite runs one transaction at a time, so
 * no other transaction is open (half done) meanwhile, and every one that committed before is in the
 * copy. The checkpoint first writes every change to the data files, so the copy starts without
 * replaying the write-ahead log. The database is busy for the time the copy takes (about a second for
 * a few hundred megabytes); requests wait meanwhile.
 */
export async function dumpPglite(client: Dumpable): Promise<Buffer> {
  return client.transaction(async (tx) => {
    await tx.exec("CHECKPOINT");
    const archive = await client.dumpDataDir("gzip");
    return Buffer.from(await archive.arrayBuffer());
  });
}

const REQUEST = "backup\n";

export interface BackupServer {
  close(): Promise<void>;
}

/**
 * Answers backup requests on `socketPath` with `dump()`: a header line (`{"ok":true,"bytes":n}` or
 * `{"ok":false,"error":…}`), then the archive. The caller holds the folder's lock, so a socket file
 * found there is a dead process's and is replaced. `onError`: the socket could not be opened (the
 * process serves on; backups then need the server stopped).
 */
export function serveBackups(
  socketPath: string,
  dump: () => Promise<Buffer>,
  onError: (error: Error) => void,
): BackupServer {
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.on("error", () => socket.destroy());
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      if (received.length > REQUEST.length || (received.length === REQUEST.length && received !== REQUEST)) {
        socket.end(`${JSON.stringify({ ok: false, error: "unknown request" })}\n`);
        return;
      }
      if (received !== REQUEST) return;
      dump().then(
        (archive) => {
          socket.write(`${JSON.stringify({ ok: true, bytes: archive.length })}\n`);
          socket.end(archive);
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          socket.end(`${JSON.stringify({ ok: false, error: message })}\n`);
        },
      );
    });
  });
  server.on("error", onError);
  server.listen(socketPath, () => {
    try {
      fs.chmodSync(socketPath, 0o600);
    } catch (error) {
      onError(error as Error);
    }
  });
  // A backup socket never keeps a process (the CLI) alive.
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * Asks the process that holds the embedded database for a backup. Undefined when none listens on
 * `socketPath` (no such socket, or a dead process's); rejects when it answered with an error.
 */
export function requestBackup(socketPath: string, timeoutMs = 300_000): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    let connected = false;
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`The server did not answer the backup within ${timeoutMs / 1000} s`)),
    );
    socket.on("connect", () => {
      connected = true;
      socket.write(REQUEST);
    });
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED")) resolve(undefined);
      else reject(error);
    });
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      let header: { ok?: boolean; bytes?: number; error?: string } = {};
      try {
        header = JSON.parse(all.subarray(0, newline).toString("utf8"));
      } catch {
        // checked below
      }
      if (header.ok !== true) {
        reject(new Error(`The server could not make the backup: ${header.error ?? "no answer"}`));
        return;
      }
      const archive = all.subarray(newline + 1);
      if (archive.length !== header.bytes) {
        reject(new Error(`The backup was cut short (${archive.length} of ${header.bytes} bytes)`));
        return;
      }
      resolve(archive);
    });
  });
}
