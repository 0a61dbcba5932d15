/** Spec 1's order list page size, which the console's other lists keep too. */
export const PER_PAGE = 20;

/**
 * A console list's pager: the page, how many there are, and the links to the
 * pages before and after it, each keeping the list's filters (empty ones left out).
 */
export function pager(filter: Record<string, string | undefined>, page: number, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const link = (to: number) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
    query.set("page", String(to));
    return `?${query.toString()}`;
  };
  return { page, totalPages, previous: page > 1 ? link(page - 1) : null, next: page < totalPages ? link(page + 1) : null };
}
