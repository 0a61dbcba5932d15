export * from "./mailer.ts";
