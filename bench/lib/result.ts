import type { ComparedResult } from "./load.ts";

/**
 * What one bench reports to `pnpm bench` (bench/all.ts): a single stdout line
 * `BENCH_RESULT {json}` after its own tables, which all.ts reads back from the
 * child's output to build one summary table.
 */
export interface BenchResult {
  /** The issue's row, e.g. "order intake, 5 lines, concurrency 20". */
  path: string;
  /** The baseline measured in the same run, as text ("bare Express 10,444 req/s"); null when the path has none. */
  baseline: string | null;
  /** The figure, as text ("976 orders/s (9 %)"). */
  figure: string;
  /** null for a path without a target: the figure is shown for the record. */
  target: string | null;
  met: boolean | null;
  p99Ms: number | null;
  /** Peak resident memory under load, MB; null for a process the bench does not run. */
  rssApiMb: number | null;
  rssWorkerMb: number | null;
}

export const RESULT_MARK = "BENCH_RESULT ";

/** Fields beyond BenchResult's are a bench's own figures for scripts that read the line (bench:scale's efficiency_2, efficiency_4); all.ts ignores them. */
export function reportResult<R extends BenchResult>(result: R): void {
  console.log(`${RESULT_MARK}${JSON.stringify(result)}`);
}

/** A path measured beside its baseline by compareLoads, as the summary shows it. */
export function againstBaseline(
  path: string,
  baseline: ComparedResult,
  measured: ComparedResult,
  unit: string,
  /** null for a row shown for the record (a second baseline). */
  target: { text: string; met: boolean } | null,
  rssApiMb: number | undefined,
): BenchResult {
  return {
    path,
    baseline: `${baseline.name}: ${baseline.rps} req/s, p99 ${baseline.p99} ms`,
    figure: `${measured.rps} ${unit} (${Math.round((100 * measured.rps) / baseline.rps)} %)${measured.non2xx || measured.errors ? `, ${measured.non2xx} non-2xx, ${measured.errors} errors` : ""}`,
    target: target?.text ?? null,
    // A run with failed requests measured something else than the path.
    met: target ? target.met && measured.non2xx === 0 && measured.errors === 0 : null,
    p99Ms: measured.p99,
    rssApiMb: rssApiMb ?? null,
    rssWorkerMb: null,
  };
}
