export * from "./webhook.ts";
