import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { getLogger } from "@/lib/log";
import { randomToken } from "./tokens";

const FILE_NAME = "master.key";
const KEY = Symbol.for("sesame.masterSecret");
type Holder = { [KEY]?: string };

/**
 * The master secret that encrypts signing keys at rest: `SESAME_MASTER_SECRET`, or for the embedded
 * default a secret generated once into `<data dir>/master.key` (mode 0600).
 */
export function getMasterSecret(): string {
  const holder = globalThis as Holder;
  holder[KEY] ??= loadMasterSecret();
  return holder[KEY];
}

function loadMasterSecret(): string {
  const config = getConfig();
  if (config.masterSecret) return config.masterSecret;

  const file = path.join(config.dataDir, FILE_NAME);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, `${randomToken(32)}\n`, { flag: "wx", mode: 0o600 });
      getLogger().info({ file }, "generated a new master secret");
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  if (config.databaseUrl) {
    getLogger().warn(
      { file },
      "SESAME_MASTER_SECRET is not set: using the secret in the data folder. Every instance sharing this " +
        "database must use the same secret; set SESAME_MASTER_SECRET on all of them.",
    );
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32)
    throw new Error(`${file} holds fewer than 32 characters; it is not a Sesame secret.`);
  return secret;
}
