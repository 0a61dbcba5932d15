export * from "./db.ts";
export * from "./db-outage.ts";
export * from "./group-insert.ts";
export * from "./replica.ts";
export * from "./caller-writes.ts";
export * from "./sql.ts";
export * from "./identity.ts";
export * from "./retention.ts";
