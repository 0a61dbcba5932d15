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
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Body of each request; called per request so bodies can differ. */
  body: () => string;
}

/** Drives one HTTP endpoint at a fixed concurrency from this process and reports throughput and latency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: "POST",
    connections: options.connections,
    duration: options.durationSeconds,
    headers: { "content-type": "application/json", ...options.headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: options.body() }) }],
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

export function printTable(title: string, rows: LoadResult[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((row) => ({
      endpoint: row.name,
      "req/s": row.rps,
      "p50 ms": row.p50,
      "p99 ms": row.p99,
      requests: row.requests,
      "non-2xx": row.non2xx,
      errors: row.errors,
    })),
  );
}
