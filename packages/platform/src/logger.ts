import { accessSync, constants, mkdirSync } from "node:fs";
import path from "node:path";
import winston from "winston";
import type { Config } from "./config.ts";
import { redact } from "./redact.ts";
import { rotatingFile } from "./rotating-file.ts";

export type Logger = winston.Logger;

const redactFormat = winston.format((info) => {
  const cleaned = redact({ ...info }) as Record<string | symbol, unknown>;
  for (const key of Object.keys(info)) delete (info as Record<string, unknown>)[key];
  Object.assign(info, cleaned);
  return info;
});

/** True when the directory exists (made if missing) and this process may write in it. */
export function writableDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON lines to stdout and to this process's daily file
 * `<name>-YYYY-MM-DD.<host>-<pid>.log` in LOG_DIR (rotated at 5 MB, kept 30
 * days: spec 2, section 8; two workers never share a file). When LOG_DIR cannot be
 * written, everything goes to stderr instead (spec 1, 4.6).
 */
export function createLogger(name: string, config: Pick<Config, "LOG_DIR" | "LOG_LEVEL" | "LOG_STDOUT">): Logger {
  // winston formats every entry before its transports drop the disabled levels; drop them first.
  const enabled = winston.format((info) => (winston.config.npm.levels[info.level]! <= winston.config.npm.levels[config.LOG_LEVEL]! ? info : false));
  const format = winston.format.combine(
    enabled(),
    winston.format.timestamp(),
    winston.format.errors({ stack: true }),
    redactFormat(),
    winston.format.json(),
  );
  const transports: winston.transport[] = [];
  const dir = path.resolve(config.LOG_DIR);
  const fileLogging = writableDir(dir);
  if (fileLogging) {
    transports.push(rotatingFile(dir, name, "5m"));
  }
  if (!fileLogging) {
    transports.push(new winston.transports.Console({ stderrLevels: ["error", "warn", "info", "debug"] }));
  } else if (config.LOG_STDOUT) {
    transports.push(new winston.transports.Console());
  }
  const logger = winston.createLogger({ level: config.LOG_LEVEL, format, defaultMeta: { service: name }, transports });
  if (!fileLogging) logger.warn("log directory not writable, logging to stderr only", { log_dir: dir });
  return logger;
}
