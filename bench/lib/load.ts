import autocannon from "autocannon";

export interface LoadResult {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  /** POST unless told. */
  method?: "GET" | "POST";
  connections: number;
  /** How long to send, or (`amount`) how many requests to send, whichever the options give. */
  durationSeconds?: number;
  amount?: number;
  headers?: Record<string, string>;
  /** Body of each request; called per request so bodies can differ. */
  body?: () => string;
  /** Path and query of each request (default: the URL's); called per request. */
  path?: () => string;
}

/** Drives one HTTP endpoint at a fixed concurrency from this process and reports throughput and latency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "POST",
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.durationSeconds } : { amount: options.amount }),
    headers: { "content-type": "application/json", ...options.headers },
    requests: [
      {
        setupRequest: (request) => ({ ...request, ...(options.body && { body: options.body() }), ...(options.path && { path: options.path() }) }),
      },
    ],
  });
  return {
    name: options.name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export interface ComparedResult extends LoadResult {
  rounds: number;
  rpsRange: [number, number];
}

/**
 * Runs the endpoints in alternation for several short rounds and reports each
 * one's median: on a small shared machine, background load drifts, and
 * alternating keeps a drift from favouring whichever endpoint ran second.
 */
export async function compareLoads(endpoints: Omit<LoadOptions, "durationSeconds">[], rounds: number, secondsPerRound: number): Promise<ComparedResult[]> {
  const results = endpoints.map(() => [] as LoadResult[]);
  for (let round = 0; round < rounds; round += 1) {
    for (const [i, endpoint] of endpoints.entries()) results[i]!.push(await runLoad({ ...endpoint, durationSeconds: secondsPerRound }));
  }
  return results.map((runs, i) => ({
    name: endpoints[i]!.name,
    rounds,
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    rps: median(runs.map((run) => run.rps)),
    rpsRange: [Math.min(...runs.map((run) => run.rps)), Math.max(...runs.map((run) => run.rps))],
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  }));
}

export function printComparison(title: string, rows: ComparedResult[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((row) => ({
      endpoint: row.name,
      "median req/s": row.rps,
      "req/s range": `${row.rpsRange[0]}-${row.rpsRange[1]}`,
      "median p50 ms": row.p50,
      "median p99 ms": row.p99,
      requests: row.requests,
      "non-2xx": row.non2xx,
      errors: row.errors,
    })),
  );
}
