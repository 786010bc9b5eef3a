import { z } from "zod";

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

/**
 * The query of a paged admin list: `page` from 1 and `per_page` 1 to 100 (20 by default). Spread it
 * into the contract's query with the list's own filters.
 */
export const pageQuery = (items: string) => ({
  page: z.coerce.number().int().min(1).default(1).meta({ description: "Page number, from 1" }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: `${items} per page, 1 to 100` }),
});

/** The 200 of a paged admin list: a JSON array of `item`, `X-Total-Count` and `Link`. */
export const pageResponse = <S extends z.ZodType>(description: string, item: S, total: string) => ({
  description,
  content: { "application/json": { schema: z.array(item) } },
  headers: z.object({
    "X-Total-Count": z.number().int().meta({ description: total }),
    Link: z
      .string()
      .meta({ description: "RFC 5988 links: first, last, next, prev (Hanko's pagination header)" }),
  }),
});

/** The page a parsed query asks for, as the owners' list operations take it. */
export const requestedPage = (query: { page: number; per_page: number }) => ({
  page: query.page,
  perPage: query.per_page,
});
