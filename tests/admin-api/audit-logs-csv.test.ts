import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/(admin-api)/t/[tenantId]/admin/audit_logs/route";
import { recordAuditEvent } from "@/lib/audit";
import { seedAuditLogs } from "@/lib/audit/test-support";
import { adminCall } from "@/tests/helpers/admin-api";
import { createUserWithEmail } from "@/tests/helpers/public-api";
import { createTestTenant } from "@/tests/helpers/tenants";

const exportCsv = (tenantId: string, key: string, query = "") =>
  adminCall(GET, `/t/${tenantId}/admin/audit_logs${query ? `?${query}` : ""}`, key, {
    params: { tenantId },
    headers: { accept: "text/csv" },
  });

/** RFC 4180: records end in CRLF, quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  expect(field, "the last record ends in CRLF").toBe("");
  return records;
}

const HEADER = [
  "id",
  "created_at",
  "type",
  "error",
  "actor_user_id",
  "actor_email",
  "meta_source_ip",
  "meta_user_agent",
  "meta_http_request_id",
  "details",
];

describe("GET /t/{tenant_id}/admin/audit_logs with Accept: text/csv", () => {
  it("streams every selected event as an RFC 4180 attachment, formulas neutralised, page and per_page ignored", async () => {
    const { tenant, keys } = await createTestTenant();
    const address = `csv-${Date.now()}@example.com`;
    const user = await createUserWithEmail(tenant, address);
    const plain = await recordAuditEvent(tenant.id, {
      type: "test.csv.succeeded",
      actor: user.id,
      ip: "198.51.100.4",
      userAgent: "Mozilla/5.0 (X11, Linux)",
      requestId: "req-a",
      details: { note: 'say "hi", then\r\nleave' },
    });
    const hostile = await recordAuditEvent(tenant.id, {
      type: "test.csv.failed",
      actor: "api_key:k1",
      ip: "198.51.100.5",
      userAgent: '=HYPERLINK("https://evil.example","x")',
      requestId: "+1+cmd|' /C calc'!A0",
      details: { reason: "@SUM(1,2)", status: 400 },
    });
    await recordAuditEvent(tenant.id, { type: "test.other", userAgent: "-2+3" });

    const res = await exportCsv(tenant.id, keys.admin, "type=test.csv.*&page=2&per_page=1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="audit-logs-${tenant.id}.csv"`);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(parseCsv(await res.text())).toEqual([
      HEADER,
      [
        hostile.id,
        hostile.createdAt.toISOString(),
        "test.csv.failed",
        "'@SUM(1,2)",
        "",
        "",
        "198.51.100.5",
        `'=HYPERLINK("https://evil.example","x")`,
        "'+1+cmd|' /C calc'!A0",
        '{"reason":"@SUM(1,2)","status":400}',
      ],
      [
        plain.id,
        plain.createdAt.toISOString(),
        "test.csv.succeeded",
        "",
        user.id,
        address,
        "198.51.100.4",
        "Mozilla/5.0 (X11, Linux)",
        "req-a",
        JSON.stringify({ note: 'say "hi", then\r\nleave' }),
      ],
    ]);

    const other = parseCsv(await (await exportCsv(tenant.id, keys.admin, "q=-2%2B3")).text());
    expect(other.map((record) => record[7])).toEqual(["meta_user_agent", "'-2+3"]);

    const none = parseCsv(await (await exportCsv(tenant.id, keys.admin, "type=test.none")).text());
    expect(none).toEqual([HEADER]);
  });

  it("exports 100,000 events in bounded memory", async () => {
    const { tenant, keys } = await createTestTenant();
    const rows = 100_000;
    await seedAuditLogs(tenant.id, rows, { type: "test.bulk" });

    // A collection before each sample, so the heap measured is what the export keeps alive, not
    // garbage V8 has not collected yet.
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const res = await exportCsv(tenant.id, keys.admin, "type=test.bulk");
    expect(res.status).toBe(200);
    let peak = baseline;
    let bytes = 0;
    let lineBreaks = 0;
    let chunks = 0;
    let first: Uint8Array | undefined;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      first ??= value.slice(0, 200);
      bytes += value.byteLength;
      for (const byte of value) if (byte === 10) lineBreaks++;
      if (++chunks % 5 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    }
    const growth = peak - baseline;
    // One header row, then one line per event (the seeded values hold no line breaks).
    expect(lineBreaks - 1).toBe(rows);
    expect(new TextDecoder().decode(first).startsWith(`${HEADER.join(",")}\r\n`)).toBe(true);
    expect(bytes).toBeGreaterThan(15_000_000);
    // The whole CSV never sits in memory: the heap grows by a small fraction of it at most.
    expect(growth, `heap grew ${growth} bytes for ${bytes} bytes of CSV`).toBeLessThan(bytes / 3);
  }, 300_000);
});
