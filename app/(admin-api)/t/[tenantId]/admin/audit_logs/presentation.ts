/** `Accept` names text/csv (with any q above 0): the CSV export instead of a JSON page. */
export function wantsCsv(req: Request): boolean {
  return (req.headers.get("accept") ?? "")
    .split(",")
    .map((range) => range.trim().toLowerCase().split(";"))
    .some(
      ([type, ...params]) => type?.trim() === "text/csv" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)),
    );
}
