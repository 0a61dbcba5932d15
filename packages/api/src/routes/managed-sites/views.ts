import { z } from "zod";

/** What the dashboard actions answer, as documented in the OpenAPI document (the shapes of @mw/domains/managed-sites's views). */

export const siteData = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  client: z.string().nullable(),
  status: z.enum(["active", "archived"]),
  hosting: z.string().nullable(),
  notes: z.string().nullable(),
  wp_username: z.string().nullable(),
  wp_app_password_set: z.boolean(),
  cdn_zone_id: z.string().nullable(),
  cdn_api_token_set: z.boolean(),
  wp_name: z.string().nullable(),
  wp_description: z.string().nullable(),
  plugins: z.array(z.object({ plugin: z.string(), name: z.string(), version: z.string().nullable(), active: z.boolean(), update_available: z.boolean().nullable().describe("null when the site does not say") })),
  synced_at: z.string().nullable(),
  ssl_issuer: z.string().nullable(),
  ssl_expires_at: z.string().nullable(),
  ssl_days_left: z.number().int().nullable(),
  ssl_checked_at: z.string().nullable(),
  last_audit: z.record(z.string(), z.unknown()).nullable(),
  last_audit_at: z.string().nullable(),
  screenshot_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const costData = z.object({
  id: z.number().int(),
  name: z.string(),
  vendor: z.string(),
  amount: z.number(),
  currency: z.string(),
  cycle: z.enum(["monthly", "yearly"]),
  renews_on: z.string().nullable(),
  notes: z.string().nullable(),
  monthly_amount: z.number(),
  site_ids: z.array(z.number().int()),
  per_site_monthly_share: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const licenseData = z.object({
  id: z.number().int(),
  product: z.string(),
  license_key_set: z.boolean(),
  seats: z.number().int().nullable(),
  expires_on: z.string().nullable(),
  days_left: z.number().int().nullable(),
  cost: z.object({ id: z.number().int(), name: z.string(), vendor: z.string() }).nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A page of a list: the rows under their name, and where the page is. */
export function page<K extends string, S extends z.ZodType>(key: K, row: S) {
  return z.object({ [key]: z.array(row), total: z.number().int(), page: z.number().int(), per_page: z.number().int(), total_pages: z.number().int() } as Record<K, z.ZodArray<S>> & {
    total: z.ZodNumber;
    page: z.ZodNumber;
    per_page: z.ZodNumber;
    total_pages: z.ZodNumber;
  });
}

const AT = "2026-11-25T09:30:00.000Z";

export const SITE_EXAMPLE: z.output<typeof siteData> = {
  id: 3,
  name: "ACME shop",
  url: "https://shop.acme.example",
  client: "ACME",
  status: "active",
  hosting: "Kinsta",
  notes: null,
  wp_username: "dashboard",
  wp_app_password_set: true,
  cdn_zone_id: null,
  cdn_api_token_set: false,
  wp_name: "ACME Shop",
  wp_description: "Tools for roadrunners",
  plugins: [{ plugin: "woocommerce/woocommerce", name: "WooCommerce", version: "9.4.1", active: true, update_available: false }],
  synced_at: AT,
  ssl_issuer: "R11",
  ssl_expires_at: "2027-01-20T12:00:00.000Z",
  ssl_days_left: 56,
  ssl_checked_at: AT,
  last_audit: null,
  last_audit_at: null,
  screenshot_at: null,
  archived_at: null,
  created_at: AT,
  updated_at: AT,
};

export const COST_EXAMPLE: z.output<typeof costData> = {
  id: 5,
  name: "Hosting plan",
  vendor: "Kinsta",
  amount: 300,
  currency: "EUR",
  cycle: "yearly",
  renews_on: "2027-03-01",
  notes: null,
  monthly_amount: 25,
  site_ids: [3, 4],
  per_site_monthly_share: 12.5,
  created_at: AT,
  updated_at: AT,
};

export const LICENSE_EXAMPLE: z.output<typeof licenseData> = {
  id: 8,
  product: "Gravity Forms Elite",
  license_key_set: true,
  seats: 10,
  expires_on: "2027-01-15",
  days_left: 50,
  cost: { id: 5, name: "Hosting plan", vendor: "Kinsta" },
  notes: null,
  created_at: AT,
  updated_at: AT,
};
