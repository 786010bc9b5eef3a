/** `Accept` names text/csv (with any q above 0): the CSV export instead of a JSON page. */
export function wantsCsv(req: Request): boolean {
  return (req.headers.get("accept") ?? "")
    .split(",")
    .map((range) => range.trim().toLowerCase().split(";"))
    .some(
      ([type, ...params]) => type?.trim() === "text/csv" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)),
    );
}

/**
 * Hanko's `Link` header of a paginated list (backend/pagination/header.go): `first` (unless on page 1
 * of several), `last` (unless on it), `next`, `prev`, each the request's URL with `page` and `per_page`
 * set, joined by commas.
 */
export function paginationLinks(
  url: string,
  listing: { total: number; page: number; perPage: number },
): string {
  const { total, page, perPage } = listing;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const link = (rel: string, target: number) => {
    const u = new URL(url);
    u.searchParams.set("page", String(target));
    u.searchParams.set("per_page", String(perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page !== 1 || page === lastPage) links.push(link("first", 1));
  if (page !== lastPage) links.push(link("last", lastPage));
  if (page < lastPage) links.push(link("next", page + 1));
  if (page > 1) links.push(link("prev", page - 1));
  return links.join(",");
}
