import type { Connections } from "@mw/shared";
export type CliDeps = Pick<Connections, "config" | "prisma" | "logger">;
export interface Command { summary: string; arguments?: { name: string; description: string }[]; options: Record<string, { type: "string" | "boolean"; required?: boolean; description: string }>; run(deps: CliDeps, values: Record<string, string | boolean | undefined>, args: string[]): Promise<unknown>; }
