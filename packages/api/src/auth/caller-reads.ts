import type { Request, Response } from "express";
import { callerScope } from "@mw/platform";
import type { AppContext } from "../context.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Serves the rest of a request as a known caller, so that with a read replica
 * the caller reads its own writes (docs/deployment.md, "Read your own
 * writes"): a write request (any method but GET, HEAD, OPTIONS) records the
 * primary's position in Redis before its answer leaves (res.end waits for it,
 * as a session store saves before answering), and the replica client's reads
 * during any request of the same caller wait for the replica to reach it.
 * The caller is the credential (`identity`) and the client address, so a
 * program that pushes orders with a site key and lists them with a user's
 * application password is one caller. Without a replica, `then` just runs.
 */
export function asCaller<T>(ctx: Pick<AppContext, "callerWrites">, req: Request, res: Response, identity: string, then: () => T): T {
  const writes = ctx.callerWrites;
  if (!writes) return then();
  const callers = [identity, `addr:${req.ip ?? "unknown"}`];
  if (!READS.has(req.method)) recordBeforeEnd(res, () => writes.wrote(callers));
  return callerScope.run({ callers }, then);
}

function recordBeforeEnd(res: Response, record: () => Promise<void>): void {
  const end = res.end;
  let recording = false;
  res.end = function (this: Response, ...args: unknown[]) {
    if (recording) return (end as (...a: unknown[]) => Response).apply(this, args);
    recording = true;
    // A record that fails (Redis down) must not hold the answer: the caller then may read the replica's older rows.
    void record()
      .catch(() => undefined)
      .finally(() => (end as (...a: unknown[]) => Response).apply(this, args));
    return this;
  } as Response["end"];
}
