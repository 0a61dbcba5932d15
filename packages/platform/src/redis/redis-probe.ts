import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { connect } from "node:tls";
import type { RedisClient } from "./redis.ts";
import { describeHosts, describeRedisTarget, type RedisTarget } from "../config/redis-url.ts";

/**
 * What a one-shot connection attempt saw go wrong. A cluster reports only
 * "Failed to refresh slots cache" (ClusterAllFailedError) and "Connection is
 * closed" for a node it could not reach: the reason (ECONNREFUSED, WRONGPASS)
 * is in its node errors, so those are kept and preferred.
 */
export function watchProbe(client: RedisClient): { cause(raw: unknown): Error & { code?: string } } {
  let first: Error | undefined;
  let firstNode: Error | undefined;
  client.on("error", (error: Error) => (first ??= error));
  client.on("node error", (error: Error) => (firstNode ??= error));
  return {
    cause(raw) {
      const last = (first as { lastNodeError?: Error } | undefined)?.lastNodeError;
      return (firstNode ?? last ?? first ?? raw) as Error & { code?: string };
    },
  };
}

/** Node's codes for a server certificate that does not verify. */
const CERTIFICATE = /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_\w+|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/**
 * A rediss form whose servers' certificates do not verify (a wrong or missing
 * CA, a name or address the certificate does not hold): one line that says so
 * and what to set, for every topology. ioredis reports such a failure of a
 * sentinel or cluster node only as "Connection is closed", so after a failed
 * probe one TLS handshake with the first host, verified as the connections
 * verify, finds the reason.
 */
export async function certificateProblem(target: RedisTarget, tlsCaFile: string | undefined): Promise<Problem | undefined> {
  if (!target.tls) return undefined;
  const first = target.kind === "single" ? target : target.kind === "sentinel" ? target.sentinels[0]! : target.nodes[0]!;
  const reason = await handshakeFailure(first.host, first.port, tlsCaFile);
  if (!reason) return undefined;
  return {
    line: `Redis at ${describeRedisTarget(target)} (REDIS_URL) presented a certificate this process does not trust (${reason}): set REDIS_TLS_CA_FILE to the CA that signs the servers' certificates (or add it to NODE_EXTRA_CA_CERTS), and reach them by a name or address their certificates hold.`,
    exitCode: 78,
  };
}

/** Why the server's certificate does not verify, or undefined when it does (or the handshake failed for another reason, left to the other checks). */
function handshakeFailure(host: string, port: number, caFile: string | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, ...(isIP(host) ? {} : { servername: host }), ...(caFile ? { ca: readFileSync(caFile) } : {}), timeout: 5000 });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.once("secureConnect", () => done(undefined));
    socket.once("timeout", () => done(undefined));
    socket.once("error", (error: Error & { code?: string }) => done(CERTIFICATE.test(error.code ?? "") ? error.message.replace(/\.$/, "") : undefined));
  });
}

const NO_SENTINEL = /^All sentinels are unreachable.*?(?:Last error: (.*))?$/s;

type Problem = { line: string; exitCode: number };

/**
 * The failures only Sentinel and Cluster have, in words that say what to fix;
 * undefined for any other (a master or node refusing the password is worded
 * as for one node). ioredis folds every sentinel's answer into "All sentinels
 * are unreachable ... Last error: <the last one's>", and a cluster seed it
 * could not reach into "Connection is closed" (the refusal itself is lost).
 */
export function topologyProblem(target: RedisTarget, error: Error): Problem | undefined {
  if (target.kind === "cluster" && error.message === "Connection is closed.") {
    return {
      line: `Cannot reach Redis at ${describeRedisTarget(target)} (REDIS_URL): no node answered. Start the cluster (\`pnpm services --redis-cluster\` runs a local one) or set REDIS_URL.`,
      exitCode: 69,
    };
  }
  if (target.kind !== "sentinel") return undefined;
  const match = NO_SENTINEL.exec(error.message);
  if (!match) return undefined;
  const sentinels = describeHosts(target.sentinels);
  const last = match[1]?.trim() ?? "";
  if (/NOAUTH|WRONGPASS/.test(last)) {
    return { line: `The sentinels at ${sentinels} refused REDIS_SENTINEL_PASSWORD (${/NOAUTH/.test(last) ? "they require one and it is unset" : "wrong password"}): set it to the sentinels' requirepass.`, exitCode: 78 };
  }
  if (/No such master/i.test(last)) {
    return { line: `The sentinels at ${sentinels} know no master named "${target.masterName}": fix the name in REDIS_URL (redis+sentinel://HOST:PORT,.../MASTER).`, exitCode: 78 };
  }
  return {
    line: `Cannot reach Redis at ${describeRedisTarget(target)} (REDIS_URL): no sentinel answered${last ? ` (the last: ${last.replace(/\.$/, "")})` : ""}. Start the sentinels (\`pnpm services --redis-sentinel\` runs a local group) or set REDIS_URL.`,
    exitCode: 69,
  };
}
