import { csvChunks, type CsvRow } from "@mw/domains/reports";
import { describe, expect, it } from "vitest";

async function* batchesOf(...batches: CsvRow[][]) {
  for (const batch of batches) yield batch;
}

async function csv(columns: string[], ...batches: CsvRow[][]): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of csvChunks(columns, batchesOf(...batches))) chunks.push(chunk);
  return chunks;
}

// Every report and CSV export is written by csvChunks: what a spreadsheet or a CSV reader opens (RFC 4180).
describe("CSV text", () => {
  it("quotes a cell with a comma, quote or line break and doubles its quotes; numbers and plain text as they are", async () => {
    const [text] = await csv(["id", "name", "note"], [
      [1, "Acme, Inc.", 'say "hi"'],
      [2.5, "two\nlines", "carriage\rreturn"],
      [0, "", "plain; text"],
    ]);
    expect(text).toBe('id,name,note\n1,"Acme, Inc.","say ""hi"""\n2.5,"two\nlines","carriage\rreturn"\n0,,plain; text\n');
  });

  it("writes a chunk per batch with the header in the first only, skips empty batches, and the header alone without rows", async () => {
    expect(await csv(["a", "b"], [], [[1, "x"]], [], [[2, "y"], [3, "z"]])).toEqual(["a,b\n1,x\n", "2,y\n3,z\n"]);
    expect(await csv(["a", "b, c"], [])).toEqual(['a,"b, c"\n']);
  });
});
