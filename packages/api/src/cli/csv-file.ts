import { createReadStream } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse";

/**
 * The records of a CSV file a `pnpm cli` command was given: the header row
 * names the columns (trimmed, lower-cased), cells trimmed, blank lines and a
 * byte-order mark skipped. A relative path is read from where the user typed
 * the command (pnpm runs scripts from the repository root; INIT_CWD says where).
 */
export function csvRecords(file: string): AsyncIterable<Record<string, string>> {
  const input = createReadStream(path.resolve(process.env.INIT_CWD ?? process.cwd(), file));
  return input.pipe(parse({ columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()), trim: true, skip_empty_lines: true, bom: true }));
}
