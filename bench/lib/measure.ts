/**
 * What one measurement window of a closed loop yields: latency percentiles from the client's timings,
 * CPU of the server (and Postgres) from /proc samples taken at the window's edges, and the load the
 * rest of the machine added meanwhile. Shared by `npm run bench` and `npm run bench:webhooks`.
 */
import type { Window } from "./client";
import { cpuSecondsBetween, machineBusySeconds, sampleCpu, type CpuSample } from "./proc";
import { mean, percentile, round } from "./stats";

/** Figures of one measurement window. */
export interface WindowResult {
  seconds: number;
  ceremonies: number;
  errors: number;
  ceremoniesPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Mean time of each step of a ceremony, ms. */
  stepMeanMs: { initialize: number; sign: number; finalize: number };
  stepP99Ms: { initialize: number; finalize: number };
  /** CPU of the server process and its children. */
  serverCpuMsPerCeremony: number;
  /** Server CPU as a share of one core (1.0 = one core busy). */
  serverCores: number;
  /** CPU of all processes of the Postgres cluster (postmaster, backends, background workers). */
  postgresCpuMsPerCeremony: number | null;
  /** CPU of this load generator (HTTP client and software authenticators). */
  clientCpuMsPerCeremony: number;
  /** Peak of the server's summed RSS (process and children), polled every 100 ms, MB. */
  peakRssMb: number;
  /**
   * CPU used by everything else on the machine (other people's processes, the kernel), in cores: the
   * figures are only trustworthy when this is near 0.
   */
  otherCores: number;
}

export interface WindowSamples {
  server: CpuSample;
  postgres: CpuSample | undefined;
  client: NodeJS.CpuUsage;
  machine: number;
}

export function summarize(
  window: Window,
  start: WindowSamples,
  end: WindowSamples,
  peakRss: number,
): WindowResult {
  const seconds = (window.endedAt - window.startedAt) / 1000;
  const n = window.timings.length;
  const perCeremony = (cpuSeconds: number) => (n === 0 ? 0 : round((cpuSeconds * 1000) / n, 2));
  const sorted = (pick: (t: (typeof window.timings)[number]) => number) =>
    window.timings.map(pick).sort((a, b) => a - b);
  const total = sorted((t) => t.total);
  const init = sorted((t) => t.initialize);
  const fin = sorted((t) => t.finalize);
  const serverCpu = cpuSecondsBetween(start.server, end.server);
  const postgresCpu = start.postgres && end.postgres ? cpuSecondsBetween(start.postgres, end.postgres) : null;
  const clientCpu =
    (end.client.user - start.client.user + end.client.system - start.client.system) / 1_000_000;
  return {
    seconds: round(seconds, 2),
    ceremonies: n,
    errors: window.errors,
    ceremoniesPerSecond: round(n / seconds),
    latencyMs: {
      p50: round(percentile(total, 50), 2),
      p90: round(percentile(total, 90), 2),
      p99: round(percentile(total, 99), 2),
      max: round(total.at(-1) ?? 0, 2),
      mean: round(mean(total), 2),
    },
    stepMeanMs: {
      initialize: round(mean(init), 2),
      sign: round(mean(window.timings.map((t) => t.sign)), 3),
      finalize: round(mean(fin), 2),
    },
    stepP99Ms: { initialize: round(percentile(init, 99), 2), finalize: round(percentile(fin, 99), 2) },
    serverCpuMsPerCeremony: perCeremony(serverCpu),
    serverCores: round(serverCpu / seconds, 2),
    postgresCpuMsPerCeremony: postgresCpu === null ? null : perCeremony(postgresCpu),
    clientCpuMsPerCeremony: perCeremony(clientCpu),
    peakRssMb: round(peakRss / 2 ** 20),
    otherCores: round(
      Math.max(0, end.machine - start.machine - serverCpu - (postgresCpu ?? 0) - clientCpu) / seconds,
      2,
    ),
  };
}

/** CPU samples of the server (and of the Postgres cluster when given), this process and the machine. */
export function sampleWindow(serverPid: number, postgresPid?: number): WindowSamples {
  return {
    server: sampleCpu(serverPid),
    postgres: postgresPid ? sampleCpu(postgresPid) : undefined,
    client: process.cpuUsage(),
    machine: machineBusySeconds(),
  };
}
