export type { Staff, Ticket } from "@mw/platform/prisma";
export * from "./ai-fields.ts";
export * from "./changes.ts";
export * from "./reads.ts";
export * from "./signals.ts";
export * from "./staff.ts";
export * from "./ticket-lookup.ts";
export * from "./time-fields.ts";
export * from "./knowledge-sources.ts";
