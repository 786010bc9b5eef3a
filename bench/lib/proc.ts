/**
 * CPU time and memory of a process tree from /proc (Linux only). CPU is utime + stime of every live
 * process in the tree plus cutime + cstime (children that exited and were reaped), in clock ticks.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks. */
  ticks: number;
}

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may contain spaces: state is field 3.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const field = (n: number) => Number(fields[n - 3] ?? 0);
  return { pid, ppid: field(4), ticks: field(14) + field(15) + field(16) + field(17) };
}

/** `root` and all its descendants, found by scanning /proc for parent ids. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push(stat.pid);
    children.set(stat.ppid, siblings);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Cumulative CPU ticks per process of a tree at one moment. */
export type CpuSample = Map<number, number>;

export function sampleCpu(root: number): CpuSample {
  const sample: CpuSample = new Map();
  for (const pid of processTree(root)) {
    const stat = readStat(pid);
    if (stat) sample.set(pid, stat.ticks);
  }
  return sample;
}

/** CPU seconds the tree used between two samples (processes born in between count in full). */
export function cpuSecondsBetween(start: CpuSample, end: CpuSample): number {
  let ticks = 0;
  for (const [pid, value] of end) ticks += value - (start.get(pid) ?? 0);
  return ticks / TICKS_PER_SECOND;
}

function statusField(pid: number, name: string): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resident set size of one process now, in bytes. */
export const rssBytes = (pid: number) => statusField(pid, "VmRSS");

/** Peak resident set size of one process over its life (VmHWM), in bytes. */
export const peakRssBytes = (pid: number) => statusField(pid, "VmHWM");

/**
 * Polls the summed RSS of a process tree every `intervalMs` and keeps the peak; `reset()` starts a new
 * peak (per run). The tree is re-read on every reset, as processes may be added.
 */
export class RssMonitor {
  private pids: number[];
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    this.pids = processTree(root);
    this.timer = setInterval(() => this.poll(), intervalMs);
    this.timer.unref();
  }

  private poll(): void {
    const total = this.pids.reduce((sum, pid) => sum + rssBytes(pid), 0);
    if (total > this.peak) this.peak = total;
  }

  /** Peak since the last reset (polled once more now), then starts a new period. */
  reset(): number {
    this.poll();
    const peak = this.peak;
    this.pids = processTree(this.root);
    this.peak = 0;
    this.poll();
    return peak;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Busy CPU seconds of the whole machine so far (all cores; /proc/stat without idle, iowait and steal). */
export function machineBusySeconds(): number {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq) / TICKS_PER_SECOND;
}
