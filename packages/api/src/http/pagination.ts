import { z } from "zod";

/** `page` (1-based) and `per_page` (default 20, max 100), as every list endpoint takes them. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});

export type PageQuery = z.output<typeof pageQuery>;

export function pageWindow(query: PageQuery): { skip: number; take: number } {
  return { skip: (query.page - 1) * query.per_page, take: query.per_page };
}

/** List responses everywhere: `{<plural>: [...], total, page, per_page, total_pages}` (design section 9). */
export function pageOf<K extends string, T>(key: K, rows: T[], total: number, query: PageQuery) {
  return {
    [key]: rows,
    total,
    page: query.page,
    per_page: query.per_page,
    total_pages: Math.ceil(total / query.per_page),
  } as { [P in K]: T[] } & { total: number; page: number; per_page: number; total_pages: number };
}

/** The OpenAPI shape of such a list. */
export function pageSchema<K extends string>(key: K, row: z.ZodType) {
  return z.object({
    [key]: z.array(row),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
  } as Record<K | "total" | "page" | "per_page" | "total_pages", z.ZodType>);
}
