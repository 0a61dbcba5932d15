import { stringify } from "csv-stringify/sync";

export type CsvRow = (string | number)[];

/**
 * A CSV written a batch of rows at a time, the header first (alone when there
 * are no rows): the same bytes as the whole table stringified at once. Each
 * batch becomes text in one synchronous step, so its row objects die young
 * and only the text waits for a slow reader; the consumer pulls the next
 * batch once it has taken the last (a stream's backpressure).
 */
export async function* csvChunks(columns: string[], batches: AsyncIterable<CsvRow[]>): AsyncGenerator<string> {
  let header = true;
  for await (const rows of batches) {
    if (!rows.length) continue;
    yield stringify(rows, { header, columns });
    header = false;
  }
  if (header) yield stringify([], { header: true, columns });
}
