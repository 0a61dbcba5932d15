export * from "./items.ts";
export * from "./known-skus.ts";
export * from "./product-webhooks/event.ts";
export * from "./product-webhooks/outbox.ts";
export * from "./product-webhooks/receiver.ts";
export * from "./product-webhooks/signature.ts";
export * from "./jobs.ts";
