/** Days as `YYYY-MM-DD` in UTC, and the buckets they fall in. */

export type Bucket = "day" | "week" | "month";

const DAY_MS = 86_400_000;

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The first day of the bucket holding `day`: itself, its week's Monday (ISO 8601), or the 1st of its month. */
export function bucketStart(day: string, bucket: Bucket): string {
  if (bucket === "day") return day;
  if (bucket === "month") return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -weekday);
}

/** The start of every bucket that overlaps `from`…`to`, in order. */
export function bucketStarts(from: string, to: string, bucket: Bucket): string[] {
  const starts: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const start = bucketStart(day, bucket);
    if (starts.at(-1) !== start) starts.push(start);
  }
  return starts;
}
