import { accessSync, constants, mkdirSync } from "node:fs";
import path from "node:path";
import winston from "winston";
import type { Config } from "../config/config.ts";
import { prettyFormat } from "./log-format.ts";
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

/** Where a process's console lines go: its own stdout and stderr, or streams standing in for them. */
export interface ConsoleStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * The console's lines: JSON unless LOG_FORMAT says pretty, or it is unset and a
 * person watches the stream (a terminal); colours only on a terminal that
 * accepts them (NO_COLOR unset).
 */
function consoleTransport(stream: ConsoleStreams["stdout"], logFormat: Config["LOG_FORMAT"]): winston.transport {
  const terminal = stream.isTTY === true;
  const pretty = (logFormat ?? (terminal ? "pretty" : "json")) === "pretty";
  return new winston.transports.Stream({
    stream,
    format: pretty ? prettyFormat({ colour: terminal && process.env.NO_COLOR === undefined }) : undefined,
  });
}

/**
 * JSON lines to this process's daily file `<name>-YYYY-MM-DD.<host>-<pid>.log`
 * in LOG_DIR (rotated at 5 MB, kept LOG_RETENTION_DAYS, 30 by default: spec 2, section 8; two workers
 * never share a file), and to stdout, as JSON or one human line each
 * (LOG_FORMAT). When LOG_DIR cannot be written, everything goes to stderr
 * instead (spec 1, 4.6).
 */
export function createLogger(
  name: string,
  config: Pick<Config, "LOG_DIR" | "LOG_LEVEL" | "LOG_STDOUT"> & Partial<Pick<Config, "LOG_FORMAT" | "LOG_RETENTION_DAYS">>,
  streams: ConsoleStreams = process,
): Logger {
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
    transports.push(rotatingFile(dir, name, "5m", config.LOG_RETENTION_DAYS));
  }
  if (!fileLogging) {
    transports.push(consoleTransport(streams.stderr, config.LOG_FORMAT));
  } else if (config.LOG_STDOUT) {
    transports.push(consoleTransport(streams.stdout, config.LOG_FORMAT));
  }
  const logger = winston.createLogger({ level: config.LOG_LEVEL, format, defaultMeta: { service: name }, transports });
  silenceDisabledLevels(logger, config.LOG_LEVEL);
  if (!fileLogging) logger.warn("log directory not writable, logging to stderr only", { log_dir: dir });
  return logger;
}

/**
 * Makes `logger.debug(...)` (and every other level below LOG_LEVEL) a no-op on
 * this logger and its children (winston's children inherit from it). winston
 * would otherwise build the entry and push it through its stream before the
 * `enabled` format drops it: a few microseconds per call, paid on hot paths
 * (the acquirer webhook's debug line per delivery) at the default level.
 */
function silenceDisabledLevels(logger: Logger, level: string): void {
  const levels = winston.config.npm.levels;
  const ignore = () => logger;
  for (const name of Object.keys(levels)) {
    if (levels[name]! > levels[level]!) Object.defineProperty(logger, name, { value: ignore });
  }
}
