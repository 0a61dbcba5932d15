export * from "./costs.ts";
export * from "./expiry.ts";
export * from "./form.ts";
export * from "./jobs.ts";
export * from "./licenses.ts";
export * from "./site-results.ts";
export * from "./sites.ts";
export * from "./summary.ts";
