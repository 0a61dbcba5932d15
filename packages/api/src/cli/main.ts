// `pnpm cli <command> [--options]`: operator bootstrap commands. Each prints one line of JSON.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { CliQueueConnections } from "@mw/platform/connections/cli";
import type { CliIo, Command } from "./command.ts";
import { COMMANDS } from "./registry.ts";

const processIo: CliIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

const argumentName = (argument: NonNullable<Command["arguments"]>[number]) => `${argument.name}${argument.variadic ? "..." : ""}`;

/** Whether the positionals fit: one each, or at least one each with a variadic last argument. */
function argumentsFit(expected: NonNullable<Command["arguments"]>, given: number): boolean {
  return expected.at(-1)?.variadic ? given >= expected.length : given === expected.length;
}

/** Every command with its summary: help without loading any command's module. */
function usage(): string {
  const lines = ["usage: pnpm cli <command> [options]", "       pnpm cli <command> --help  (its arguments and options)", ""];
  for (const [name, { summary }] of Object.entries(COMMANDS)) lines.push(`  ${name}  ${summary}`);
  return lines.join("\n");
}

function commandUsage(name: string, command: Command): string {
  const positional = command.arguments ?? [];
  const lines = [`usage: pnpm cli ${[name, ...positional.map(argumentName)].join(" ")} [options]`, `  ${COMMANDS[name]!.summary}`];
  for (const argument of positional) lines.push(`      ${argumentName(argument)}  ${argument.description} (required)`);
  for (const [option, spec] of Object.entries(command.options)) {
    lines.push(`      --${option}${spec.type === "string" ? " VALUE" : ""}  ${spec.description}${spec.required ? " (required)" : ""}`);
  }
  return lines.join("\n");
}

/** Runs one command line (without the program name); resolves to the exit code. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  const registered = name && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!registered) {
    io.err(name && name !== "--help" ? `unknown command "${name}"\n\n${usage()}` : usage());
    return name === "--help" ? 0 : 64;
  }
  const command = await registered.load();
  if (rest.length === 1 && rest[0] === "--help" && !("help" in command.options)) {
    io.err(commandUsage(name!, command));
    return 0;
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: Object.fromEntries(Object.entries(command.options).map(([key, spec]) => [key, { type: spec.type }])),
      allowPositionals: Boolean(command.arguments?.length),
      strict: true,
    }));
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${commandUsage(name!, command)}`);
    return 64;
  }
  const missing = Object.entries(command.options).filter(([key, spec]) => spec.required && values[key] === undefined);
  const expected = command.arguments ?? [];
  if (!argumentsFit(expected, positionals.length)) {
    io.err(`${name} takes ${expected.length ? expected.map(argumentName).join(" ") : "no arguments"}\n\n${commandUsage(name!, command)}`);
    return 64;
  }
  if (missing.length) {
    io.err(`missing --${missing.map(([key]) => key).join(", --")}\n\n${commandUsage(name!, command)}`);
    return 64;
  }
  // The CLI's part of the platform only (no HTTP client, object storage or the API's and worker's connections;
  // Redis and BullMQ only for a command that uses the queues).
  const [{ AppError }, { getConfigOrExit }, { openCliConnections }] = await Promise.all([
    import("@mw/platform/core"),
    import("@mw/platform/config"),
    import("@mw/platform/connections/cli"),
  ]);
  const connections = await openCliConnections(getConfigOrExit("cli"), { queues: command.queues === true, longStatements: command.longStatements === true });
  try {
    // Opened with the queues exactly when the command declares them, which is when its `run` takes them.
    io.out(JSON.stringify(await command.run(connections as CliQueueConnections, values, positionals, io)));
    return 0;
  } catch (error) {
    const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
    io.err(JSON.stringify({ error: message }));
    return 1;
  } finally {
    await connections.close();
  }
}

// Run as `pnpm cli`; imported (by the tests), it only exports main.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) process.exitCode = await main(process.argv.slice(2));
