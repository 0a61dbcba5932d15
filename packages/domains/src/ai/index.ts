export * from "./email-reply.ts";
export * from "./html-to-text.ts";
export * from "./model-calls.ts";
export * from "./rewrite-rules.ts";
export * from "./service.ts";
export * from "./ticket-analysis.ts";
export * from "./note-rules.ts";
export * from "./hashing-embedding.ts";
