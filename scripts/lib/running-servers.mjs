/**
 * Which Sesame servers run from this folder: scripts/server.mjs leaves a file named by its pid in
 * `.sesame/servers/` while it runs, and `npm start` / `npm run build` refuse to rebuild `.next` under a
 * live one (a build replaces the files a running server still loads). A file whose process has gone
 * (killed with SIGKILL, machine restarted) is stale and removed when read. Plain JavaScript, so
 * `node scripts/server.mjs` needs no tsx.
 */
import fs from "node:fs";
import path from "node:path";
import process from "node:process";

/** @param {string} root */
export function serversDirectory(root) {
  return path.join(root, ".sesame", "servers");
}

/** @param {number} pid */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return error?.code === "EPERM";
  }
}

/**
 * Records this process as a server running from `root`; the file goes when the process exits.
 * @param {string} root
 */
export function registerServer(root, pid = process.pid) {
  const directory = serversDirectory(root);
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, String(pid));
  fs.writeFileSync(file, `${pid}\n`);
  process.once("exit", () => fs.rmSync(file, { force: true }));
}

/**
 * The pids of the servers running from `root` (stale files removed).
 * @param {string} root
 * @returns {number[]}
 */
export function runningServers(root) {
  const directory = serversDirectory(root);
  if (!fs.existsSync(directory)) return [];
  const live = [];
  for (const name of fs.readdirSync(directory)) {
    const pid = Number(name);
    if (!/^\d+$/.test(name) || !isAlive(pid)) fs.rmSync(path.join(directory, name), { force: true });
    else live.push(pid);
  }
  return live.sort((a, b) => a - b);
}
