import { createRedis, QUEUE_NAMES, Queues } from "@mw/platform";
import { Cluster, type Command } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisBehaviour } from "./behaviour.ts";
import { nodesOf } from "./nodes.ts";

// The Redis-touching behaviour on the cluster of the global setup (3 masters +
// 3 replicas), then a check that every script and MULTI it sent kept its keys
// in one slot: every command any Cluster client of this process sends is
// recorded while the behaviour runs.

const CLUSTER_URL = process.env.TEST_REDIS_CLUSTER_URL!;

/** The keys of one script call, MULTI or multi-key command, with what it was. */
interface KeyGroup {
  what: string;
  keys: string[];
}

const groups: KeyGroup[] = [];
const prototype = Cluster.prototype as unknown as { sendCommand(command: Command, ...rest: unknown[]): unknown };
const send = prototype.sendCommand;
let multi: KeyGroup | undefined;

function record(command: Command): void {
  const name = command.name.toLowerCase();
  // A pipeline hands its commands over in one synchronous loop: nothing else comes between MULTI and EXEC.
  if (name === "multi") {
    multi = { what: "MULTI", keys: [] };
    return;
  }
  if (name === "exec") {
    if (multi && multi.keys.length > 0) groups.push(multi);
    multi = undefined;
    return;
  }
  const keys = command.getKeys().map(String);
  if (multi) {
    multi.keys.push(...keys);
    multi.what += ` ${name}`;
    return;
  }
  if (name === "eval" || name === "evalsha" || keys.length > 1) groups.push({ what: name, keys });
}

beforeAll(() => {
  prototype.sendCommand = function (this: Cluster, command: Command, ...rest: unknown[]) {
    record(command);
    return send.call(this, command, ...rest);
  };
});

afterAll(() => {
  prototype.sendCommand = send;
});

redisBehaviour("cluster", CLUSTER_URL, nodesOf("TEST_REDIS_CLUSTER_PORTS"));

describe("cluster: key layout", () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = createRedis(CLUSTER_URL, { name: "mw-test-slots" }) as Cluster;
    await cluster.ping();
  });

  afterAll(() => cluster.quit());

  async function slotOf(key: string): Promise<number> {
    return Number(await cluster.call("CLUSTER", "KEYSLOT", key));
  }

  it("spreads the queues over every master, each queue's keys in one slot", async () => {
    const queues = new Queues(cluster, "mw");
    const masters = new Set<string>();
    for (const name of QUEUE_NAMES) {
      const queue = queues.get(name);
      const slots = new Set(await Promise.all(Object.values(queue.keys).filter(Boolean).map(slotOf)));
      expect(slots.size, name).toBe(1);
      masters.add(cluster.slots[[...slots][0]!]![0]!);
    }
    await queues.close();
    expect(masters.size).toBe(3);
  });

  it("kept the keys of every script and MULTI the behaviour above sent in one slot", async () => {
    const crossing: string[] = [];
    for (const group of groups) {
      const slots = new Set(await Promise.all(group.keys.map(slotOf)));
      if (slots.size > 1) crossing.push(`${group.what}: ${group.keys.join(" ")}`);
    }
    expect(crossing).toEqual([]);
    // The record covers each place that runs over several keys or by script (or this test proves nothing).
    const seen = (what: RegExp, key: RegExp) => groups.some((group) => what.test(group.what) && group.keys.some((k) => key.test(k)));
    expect(seen(/^evalsha$/, /^\{[^}]+\}:[a-z]+:wait$/), "BullMQ adding a job").toBe(true);
    expect(seen(/^evalsha$/, /^\{[^}]+\}:[a-z]+:completed$/), "BullMQ finishing a job").toBe(true);
    expect(seen(/^evalsha$/, /:logs$/), "the job-log rows").toBe(true);
    expect(seen(/^evalsha$/, /:metrics:job_duration$/), "the job duration metrics").toBe(true);
    expect(seen(/^evalsha$/, /:ratelimit:acquirer:/), "the webhook limiter").toBe(true);
    expect(seen(/^evalsha$/, /:login-failures:/), "the login throttle").toBe(true);
  });
});
