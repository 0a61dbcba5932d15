export type CsvRow = (string | number)[];

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180: a cell holding a quote, comma or line break is quoted, its quotes doubled. */
function csvCell(value: string | number): string {
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV text, each line ended by `\n`. Joined, not concatenated: a batch's text built with `+=` is a tree of some 200,000 string pieces until it is written, which outlived young collections. */
function csvLines(rows: CsvRow[]): string {
  return `${rows.map((row) => row.map(csvCell).join(",")).join("\n")}\n`;
}

/**
 * A CSV written a batch of rows at a time, the header first (alone when there
 * are no rows): the same bytes as the whole table written at once. Each
 * batch becomes text in one synchronous step, so its row objects die young
 * and only the text waits for a slow reader; the consumer pulls the next
 * batch once it has taken the last (a stream's backpressure).
 */
export async function* csvChunks(columns: string[], batches: AsyncIterable<CsvRow[]>): AsyncGenerator<string> {
  let header = true;
  for await (const rows of batches) {
    if (!rows.length) continue;
    yield csvLines(header ? [columns, ...rows] : rows);
    header = false;
  }
  if (header) yield csvLines([columns]);
}
