import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
import { inputFile } from "./input-file.ts";

/**
 * The records of a CSV file a `pnpm cli` command was given (inputFile): the
 * header row names the columns (trimmed, lower-cased), cells trimmed, blank
 * lines and a byte-order mark skipped. A read error ends the records with that
 * error (a pipe alone would leave it unhandled, and the process with a trace).
 */
export function csvRecords(file: string): AsyncIterable<Record<string, string>> {
  const input = createReadStream(inputFile(file));
  const records = csvParser();
  input.once("error", (error) => records.destroy(error));
  return input.pipe(records);
}

/** The parser the CLI's files and the console's pasted CSV share: named columns, trimmed cells, no blank lines or byte-order mark. */
export function csvParser() {
  return parse({ columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()), trim: true, skip_empty_lines: true, bom: true });
}

/** The records of CSV text (the console's import form). */
export function csvTextRecords(text: string): AsyncIterable<Record<string, string>> {
  const records = csvParser();
  records.end(text);
  return records;
}
