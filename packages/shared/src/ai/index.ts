export * from "./email-reply.ts";
export * from "./model-calls.ts";
export * from "./rewrite-rules.ts";
export * from "./service.ts";
export * from "./urgency.ts";
export * from "./urgency-rules.ts";
export * from "./ticket-analysis.ts";
export * from "./note-rules.ts";
