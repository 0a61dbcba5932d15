import type { CliConnections, CliQueueConnections } from "@mw/platform/connections/cli";

/** What a command's `run` gets: the configuration and the database (cli/main.ts opens them once per run). */
export type CliDeps = CliConnections;

/** What a command that declares `queues: true` gets: the queues besides. */
export type CliQueueDeps = CliQueueConnections;

interface CommandLine {
  /** Positional arguments, all required, e.g. the file of items:import; a `variadic` last one takes one or more values. */
  arguments?: { name: string; description: string; variadic?: boolean }[];
  options: Record<string, { type: "string" | "boolean"; required?: boolean; description: string }>;
}

/** Where the CLI writes: the process's stdout and stderr, or a test's buffers when it runs in process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** A command returns what main prints as one line of JSON; `io.err` takes its progress and its skipped input, a line each. */
type Run<Deps> = (deps: Deps, values: Record<string, string | boolean | undefined>, args: string[], io: CliIo) => Promise<unknown>;

/**
 * One `pnpm cli` command: its arguments, its options and what it does (its summary is in registry.ts).
 * Only a command that declares `queues` checks and opens Redis, and only its `run` is given the queues.
 * One that declares `longStatements` (a rebuild over every order) may run a statement past DB_QUERY_TIMEOUT_MS.
 */
export type Command = CommandLine & { longStatements?: true } & ({ queues?: false; run: Run<CliDeps> } | { queues: true; run: Run<CliQueueDeps> });
