export * from "./api-keys.ts";
export * from "./connection.ts";
export * from "./credentials.ts";
export * from "./input.ts";
export * from "./site-list.ts";
export * from "./storefront-refusals.ts";
export * from "./sync-eligibility.ts";
export * from "./sync-runs.ts";
export { Platform, type CarrierMapping, type Site, type SiteApiKey } from "../generated/prisma/client.ts";
