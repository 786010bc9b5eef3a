import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type CDPSession } from "@playwright/test";
import { codeIn, startSmtpServer, type TestSmtpServer } from "@/tests/helpers/smtp";
import { freePort } from "../../scripts/lib/postgres";
import { NEXT_START, startProcess, type ServerProcess } from "./server-process";

/** A `next start` on a fresh embedded database with its demo tenant, mailing through an in-process SMTP server. */
export interface JourneyServer {
  base: string;
  tenantId: string;
  dataDir: string;
  smtp: TestSmtpServer;
  server: ServerProcess;
  stop(): Promise<void>;
}

export async function startJourneyServer(
  name: string,
  env: Record<string, string> = {},
): Promise<JourneyServer> {
  const smtp = await startSmtpServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sesame-${name}-`));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const server = startProcess(NEXT_START(port), {
    PORT: String(port),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
    SMTP_URL: smtp.url,
    ...env,
  });
  await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  // The demo tenant seeded at the first start: RP ID localhost, this server's origin.
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as {
    tenantId: string;
    rpId: string;
    origins: string[];
  };
  expect(demo).toMatchObject({ rpId: "localhost", origins: [base] });
  return {
    base,
    tenantId: demo.tenantId,
    dataDir,
    smtp,
    server,
    async stop() {
      await server.stop();
      await smtp.close();
    },
  };
}

/** A platform authenticator with user verification that answers by itself (CDP virtual authenticator). */
export async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

/** The code of mail number `after + 1` to `email` (waits for it). */
export async function mailedCode(smtp: TestSmtpServer, email: string, after: number): Promise<string> {
  await expect.poll(() => smtp.received.filter((mail) => mail.to.includes(email)).length).toBe(after + 1);
  const mail = await smtp.mailTo(email);
  return codeIn(mail.parsed.text);
}
