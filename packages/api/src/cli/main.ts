// `pnpm cli <command> [--options]`: operator bootstrap commands. Each prints one line of JSON.
import { parseArgs } from "node:util";
import { AppError, createLogger, createPrisma, getConfigOrExit, type Logger, type PrismaClient } from "@mw/shared";
import type { CliDeps, Command as DepsCommand } from "./command.ts";
import { licenseCommands } from "./dashboard.ts";
import { imageKeyCommands } from "./images.ts";
import { itemCommands } from "./items.ts";
import { knowledgeCommands } from "./knowledge.ts";
import { merchantCommands } from "./merchants.ts";
import { optionCommands } from "./options.ts";
import { reviewCommands } from "./reviews.ts";
import { staffCommands } from "./staff.ts";
import { ticketCommands } from "./tickets.ts";
import { timeCommands } from "./time.ts";
import { userCommands } from "./users.ts";

export interface Command {
  summary: string;
  /** Positional arguments, all required, e.g. the file of items:import. */
  arguments?: { name: string; description: string }[];
  options: Record<string, { type: "string" | "boolean"; required?: boolean; description: string }>;
  run(prisma: PrismaClient, values: Record<string, string | boolean | undefined>, args: string[]): Promise<unknown>;
}

/** Commands already on command.ts's Command: they take the CLI's connections, the others still the Prisma client. */
const DEPS_COMMANDS: Record<string, DepsCommand> = { ...imageKeyCommands, ...reviewCommands, ...licenseCommands, ...knowledgeCommands };

const COMMANDS: Record<string, Command | DepsCommand> = { ...userCommands, ...itemCommands, ...merchantCommands, ...optionCommands, ...ticketCommands, ...staffCommands, ...timeCommands, ...DEPS_COMMANDS };

function usage(): string {
  const lines = ["usage: pnpm cli <command> [options]", ""];
  for (const [name, command] of Object.entries(COMMANDS)) {
    const positional = command.arguments ?? [];
    lines.push(`  ${[name, ...positional.map((argument) => argument.name)].join(" ")}  ${command.summary}`);
    for (const argument of positional) lines.push(`      ${argument.name}  ${argument.description} (required)`);
    for (const [option, spec] of Object.entries(command.options)) {
      lines.push(`      --${option}${spec.type === "string" ? " VALUE" : ""}  ${spec.description}${spec.required ? " (required)" : ""}`);
    }
  }
  return lines.join("\n");
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(name && name !== "--help" ? `unknown command "${name}"\n\n${usage()}` : usage());
    return name === "--help" ? 0 : 64;
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
    console.error(`${(error as Error).message}\n\n${usage()}`);
    return 64;
  }
  const missing = Object.entries(command.options).filter(([key, spec]) => spec.required && values[key] === undefined);
  const expected = command.arguments ?? [];
  if (positionals.length !== expected.length) {
    console.error(`${name} takes ${expected.length ? expected.map((argument) => argument.name).join(" ") : "no arguments"}\n\n${usage()}`);
    return 64;
  }
  if (missing.length) {
    console.error(`missing --${missing.map(([key]) => key).join(", --")}\n\n${usage()}`);
    return 64;
  }
  const config = getConfigOrExit("cli");
  const prisma = createPrisma(config.DATABASE_URL, { connectionLimit: 2 });
  let logger: Logger | undefined;
  // The logger is opened only for a command that logs: its file transport would otherwise be opened for nothing.
  const deps: CliDeps = {
    config,
    prisma,
    get logger() {
      return (logger ??= createLogger("cli", config));
    },
  };
  try {
    const result = name! in DEPS_COMMANDS ? await DEPS_COMMANDS[name!]!.run(deps, values, positionals) : await (command as Command).run(prisma, values, positionals);
    console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ error: message }));
    return 1;
  } finally {
    await prisma.$disconnect();
  }
}

process.exitCode = await main();
