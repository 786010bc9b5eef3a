/**
 * Hanko's `Link` header of a paginated list (backend/pagination/header.go): `first` (unless on page 1
 * of several), `last` (unless on it), `next`, `prev`, each the request's URL with `page` and `per_page`
 * set (path and query, relative to the request), joined by commas.
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
    // Relative, as Hanko's (Go's request URL has no origin): behind a proxy or on the admin port the
    // origin Next.js sees is not the one the client used.
    return `<${u.pathname}${u.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page !== 1 || page === lastPage) links.push(link("first", 1));
  if (page !== lastPage) links.push(link("last", lastPage));
  if (page < lastPage) links.push(link("next", page + 1));
  if (page > 1) links.push(link("prev", page - 1));
  return links.join(",");
}

/** The headers of a page of an admin list: `X-Total-Count` and Hanko's `Link`. */
export function pageHeaders(
  url: string,
  listing: { total: number; page: number; perPage: number },
): Record<string, string> {
  return { "x-total-count": String(listing.total), link: paginationLinks(url, listing) };
}
