import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import { listAuditEvents } from "@/lib/audit";
import { ConfigError, parseConfig } from "@/lib/config";
import { executor } from "@/lib/db";
import { mailOutbox } from "@/lib/db/schema";
import { getLogger } from "@/lib/log";
import { closeMailTransport, configureMail, listOutbox, sendMail } from "@/lib/mail";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { createPasscodeTenant, createUserWithEmail, publicCall } from "../helpers/public-api";
import { codeIn, startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { expectFailureDetails } from "@/tests/helpers/audit";

const FROM = "Sesame Test <no-reply@sesame.test>";

const initialize = (tenant: Tenant, body: unknown) =>
  publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", { body });

describe("SMTP_URL and SMTP_FROM", () => {
  it("are optional: no SMTP server means the dev outbox, and a default sender", () => {
    expect(parseConfig({})).toMatchObject({ smtpUrl: undefined, smtpFrom: "Sesame <no-reply@localhost>" });
    expect(
      parseConfig({
        SMTP_URL: "smtps://user:secret@mail.example.com:465",
        SMTP_FROM: "no-reply@example.com",
      }),
    ).toMatchObject({
      smtpUrl: "smtps://user:secret@mail.example.com:465",
      smtpFrom: "no-reply@example.com",
    });
  });

  it.each([
    ["SMTP_URL", "http://mail.example.com", "must be an smtp:// or smtps:// URL"],
    ["SMTP_URL", "mail.example.com:25", "must be an smtp:// or smtps:// URL"],
    ["SMTP_FROM", "Sesame", "must be an address, optionally with a name"],
    ["SMTP_FROM", "Sesame <a@b> <c@d>", "must be an address, optionally with a name"],
  ])("reject %s=%s naming the variable", (variable, value, allowed) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [variable]: value })).toThrow(allowed);
    expect(() => parseConfig({ [variable]: value })).toThrow(`${variable}=`);
  });
});

describe("passcode mail over SMTP", () => {
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    configureMail({ smtpUrl: smtp.url, from: FROM });
  });

  afterAll(async () => {
    configureMail(undefined);
    closeMailTransport();
    await smtp.close();
  });

  it("sends the code to the address through a real SMTP server; the parsed mail logs the user in", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "smtp@example.com");
    const res = await initialize(tenant, { user_id: user.id });
    expect(res.status).toBe(200);
    const { id } = await res.json();

    const mail = await smtp.mailTo("smtp@example.com");
    expect(mail.from).toBe("no-reply@sesame.test");
    expect(mail.to).toEqual(["smtp@example.com"]);
    expect(mail.parsed.from?.value).toEqual([{ address: "no-reply@sesame.test", name: "Sesame Test" }]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: "smtp@example.com" }] });
    expect(mail.parsed.subject).toBe(`Your ${tenant.name} login code`);
    expect(mail.parsed.html).toBe(false);
    const code = codeIn(mail.parsed.text);

    const ok = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      body: { id, code },
    });
    expect(ok.status).toBe(200);
    expect(await listOutbox(tenant.id)).toEqual([]);
    const initialized = (await listAuditEvents(tenant.id, { limit: 20 })).items.find(
      (event) => event.type === "passcode.login.initialize.succeeded",
    );
    expect(initialized?.details).toMatchObject({ via: "smtp", purpose: "login" });
  });

  it("keeps header lines single: a tenant name with a line break cannot add recipients", async () => {
    const tenant = await createPasscodeTenant();
    const renamed = await updateTenant(tenant.id, { name: "Evil\r\nBcc: attacker@example.com" });
    const user = await createUserWithEmail(renamed, "target@example.com");
    expect((await initialize(renamed, { user_id: user.id })).status).toBe(200);
    const mail = await smtp.mailTo("target@example.com");
    expect(mail.to).toEqual(["target@example.com"]);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.subject).toBe("Your Evil Bcc: attacker@example.com login code");
    expect(smtp.received.some((received) => received.to.includes("attacker@example.com"))).toBe(false);
  });

  it("fails with 500 in the platform shape when the server refuses the mail, and audits it", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "refused@example.com");
    smtp.refuse = true;
    try {
      const res = await initialize(tenant, { user_id: user.id });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ code: 500, message: "Internal Server Error" });
    } finally {
      smtp.refuse = false;
    }
    expect(await listOutbox(tenant.id)).toEqual([]);
    const failed = (await listAuditEvents(tenant.id, { limit: 20 })).items.find(
      (event) => event.type === "passcode.login.initialize.failed",
    );
    expectFailureDetails(failed?.details, { status: 500 });
    // The next request, with the server accepting again, gets a code.
    expect((await initialize(tenant, { user_id: user.id })).status).toBe(200);
    await smtp.mailTo("refused@example.com");
  });
});

describe("dev outbox (no SMTP_URL)", () => {
  beforeAll(() => {
    configureMail({ smtpUrl: undefined, from: FROM });
  });

  afterAll(() => {
    configureMail(undefined);
  });

  it("keeps the mail in the tenant's outbox and logs a line with the code", async () => {
    const tenant = await createPasscodeTenant();
    const other = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "outbox@example.com");
    const info = vi.spyOn(getLogger(), "info");
    try {
      expect((await initialize(tenant, { user_id: user.id })).status).toBe(200);
      const [mail] = await listOutbox(tenant.id);
      expect(mail).toMatchObject({
        tenantId: tenant.id,
        to: "outbox@example.com",
        subject: `Your ${tenant.name} login code`,
      });
      const code = codeIn(mail!.text);
      const line = info.mock.calls.find(([, message]) => String(message).includes("dev outbox"));
      expect(line).toBeDefined();
      expect(String(line![1])).toContain(code);
      expect(String(line![1])).toContain("outbox@example.com");
      expect(line![0]).toMatchObject({ tenantId: tenant.id, to: "outbox@example.com", outboxId: mail!.id });
    } finally {
      info.mockRestore();
    }
    expect(await listOutbox(other.id)).toEqual([]);
    expect(await listOutbox(tenant.id, { to: "someone-else@example.com" })).toEqual([]);
  });

  it("drops the tenant's outbox mails older than a day when it adds one", async () => {
    const tenant = await createPasscodeTenant();
    const db = await executor();
    await db.insert(mailOutbox).values({
      tenantId: tenant.id,
      to: "old@example.com",
      subject: "old",
      text: "old",
      createdAt: sql`now() - interval '25 hours'`,
    });
    await sendMail(tenant.id, { to: "new@example.com", subject: "new", text: "new\n" });
    const rows = await db.select().from(mailOutbox).where(eq(mailOutbox.tenantId, tenant.id));
    expect(rows.map((row) => row.to)).toEqual(["new@example.com"]);
  });
});
