/** Output helpers for the CLI: JSON for scripts (stdout, one document), aligned text for people. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printTable(rows: Record<string, unknown>[]): void {
  if (rows.length === 0) {
    process.stdout.write("(none)\n");
    return;
  }
  const columns = Object.keys(rows[0] as object);
  const text = (value: unknown) =>
    value instanceof Date
      ? value.toISOString()
      : Array.isArray(value)
        ? value.join(",")
        : String(value ?? "");
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => text(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  process.stdout.write(`${line(columns)}\n`);
  for (const row of rows) process.stdout.write(`${line(columns.map((column) => text(row[column])))}\n`);
}

export class UsageError extends Error {
  override name = "UsageError";
}
