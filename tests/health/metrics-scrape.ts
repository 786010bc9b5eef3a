import { expect } from "vitest";
import { GET as metricsRoute } from "@/app/(health)/metrics/route";
import { call } from "@/tests/helpers/http";

/** The value of one sample in a Prometheus text body, or undefined when the series is absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => got[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** GET /metrics through its route handler; returns the text after checking it is a 200 in Prometheus's format. */
export async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const res = await call(metricsRoute, "/metrics", { headers });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return text;
}
