import type { CliConnections } from "@mw/platform/connections/cli";

/** What a command's `run` gets: the configuration, the database and a logger (cli/main.ts opens them once per run). */
export type CliDeps = CliConnections;

/** One `pnpm cli` command: its arguments, its options and what it does (its summary is in registry.ts). */
export interface Command {
  /** Positional arguments, all required, e.g. the file of items:import; a `variadic` last one takes one or more values. */
  arguments?: { name: string; description: string; variadic?: boolean }[];
  options: Record<string, { type: "string" | "boolean"; required?: boolean; description: string }>;
  run(deps: CliDeps, values: Record<string, string | boolean | undefined>, args: string[]): Promise<unknown>;
}
