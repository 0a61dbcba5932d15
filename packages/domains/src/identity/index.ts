export * from "./capabilities.ts";
export * from "./principal.ts";
export * from "./sessions.ts";
export * from "./users.ts";
export * from "./login-throttle.ts";
export * from "./sign-in.ts";
export * from "./ticket-staff.ts";
export * from "./ticket-bridge-secret.ts";
