export * from "./connections.ts";
export * from "./cli-connections.ts";
export { checkDatabase, exitOnProblems, type ServiceProblem } from "./database-check.ts";
export * from "./preflight.ts";
export * from "./shutdown.ts";
export * from "./pairing.ts";
