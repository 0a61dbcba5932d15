/**
 * Jobs per second in the steady middle of a backlog's run, from its jobs'
 * finish times: between the 20th and the 80th percentile finish. Before, the
 * workers are still warming up (first connections, JIT); after, the backlog
 * runs dry and fewer jobs than the workers could take are left. Every worker
 * is busy in between, so the figure is the pipeline's rate, not its start.
 */
export function steadyRate(finishedOn: number[], from = 0.2, to = 0.8): number {
  const times = [...finishedOn].sort((a, b) => a - b);
  const first = Math.floor(times.length * from);
  const last = Math.ceil(times.length * to) - 1;
  const seconds = (times[last]! - times[first]!) / 1000;
  return seconds > 0 ? (last - first) / seconds : Number.NaN;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
