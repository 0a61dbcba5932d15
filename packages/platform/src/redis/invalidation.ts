import type { RedisClient } from "./redis.ts";
import type { SubscriberFactory } from "./redis-subscriber.ts";

/** First and longest wait before a subscriber that ended for good is replaced (doubling in between). */
const REOPEN_MS = { first: 100, max: 2000 };

/**
 * A process-local cache of rows that another process may change at any moment
 * (a revoked API key, a deleted catalogue item). A change is announced on the
 * cache's Redis channel and every process clears its copy. Messages published
 * while a subscriber is disconnected are lost, so a cache is emptied when its
 * process's subscription drops and stores nothing until it is live again:
 * reads then go to the source, as they would without a cache.
 *
 * A message can also arrive after a request that the change's answer caused
 * (the process reads its sockets in no fixed order, and a cluster relays a
 * message between nodes after PUBLISH has answered). So each change also
 * counts up the channel's version key, and `catchUp` reads it before the
 * cache is used: a change is then seen by every request sent after it.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, V>();
  /** Bumped by every clear: a read of the source that began before it must not store what it read. */
  private generation = 0;
  /** The channel's version when the entries were last known to be current. */
  private version: string | null | undefined;

  constructor(
    private readonly isLive: () => boolean,
    private readonly maxEntries: number,
    private readonly readVersion: () => Promise<string | null>,
  ) {}

  /** Call before `get` on each request: clears the cache when any process changed the rows since it was last current. */
  async catchUp(): Promise<void> {
    if (!this.isLive()) return;
    const version = await this.readVersion().catch(() => undefined);
    if (version === undefined || version !== this.version) {
      this.clear();
      this.version = version;
    }
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Taken before reading the source; `set` stores only when no clear happened since. */
  stamp(): number {
    return this.generation;
  }

  set(key: string, value: V, stamp: number): void {
    if (stamp !== this.generation || !this.isLive()) return;
    // Bounded: a flood of distinct keys starts the cache over rather than growing it.
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

/**
 * The process's invalidation channels: one subscriber connection, opened when
 * the first cache is made, and publishing over the process's shared connection.
 * Channels are `<prefix>:invalidate:<name>`.
 *
 * Caches serve only while the subscription is known to be whole: from the
 * moment Redis confirms every channel until the connection closes. A
 * subscriber that will not reconnect (on a cluster, a connection to one node:
 * see subscriberFactory) is replaced by a new one, which must confirm the
 * channels again before caches serve.
 */
export class Invalidation {
  private subscriber?: RedisClient;
  private live = false;
  private reopenMs = REOPEN_MS.first;
  private reopenTimer?: NodeJS.Timeout;
  private readonly caches = new Map<string, InvalidatedCache<unknown>[]>();

  constructor(
    private readonly publisher: RedisClient,
    private readonly openSubscriber: SubscriberFactory,
    private readonly prefix: string,
  ) {}

  private channel(name: string): string {
    return `${this.prefix}:invalidate:${name}`;
  }

  private versionKey(name: string): string {
    return `${this.channel(name)}:version`;
  }

  /** True while this process hears every invalidation (its caches serve only then). */
  isLive(): boolean {
    return this.live;
  }

  /** A cache cleared whenever any process calls `publish(name)`. */
  cache<V>(name: string, maxEntries = 100_000): InvalidatedCache<V> {
    const cache = new InvalidatedCache<V>(() => this.live, maxEntries, () => this.publisher.get(this.versionKey(name)));
    const list = this.caches.get(name) ?? [];
    list.push(cache as InvalidatedCache<unknown>);
    this.caches.set(name, list);
    if (this.subscriber) {
      if (list.length === 1) this.subscribe();
    } else {
      this.connect();
    }
    return cache;
  }

  /**
   * Tells every process (this one included) that `name`'s rows changed. Call it
   * after the change is committed and before answering the request that made it.
   */
  async publish(name: string): Promise<void> {
    for (const cache of this.caches.get(name) ?? []) cache.clear();
    await this.publisher.incr(this.versionKey(name));
    await this.publisher.publish(this.channel(name), "");
  }

  async close(): Promise<void> {
    this.live = false;
    clearTimeout(this.reopenTimer);
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  private connect(): void {
    const subscriber = this.openSubscriber();
    this.subscriber = subscriber;
    subscriber.on("message", (channel: string) => {
      const name = channel.slice(this.channel("").length);
      for (const cache of this.caches.get(name) ?? []) cache.clear();
    });
    // Whatever was cached may have missed a message while the connection was down.
    subscriber.on("close", () => this.lost());
    subscriber.on("ready", () => this.subscribe());
    subscriber.on("end", () => this.reopen(subscriber));
  }

  /** A subscriber that ended without close() (it will not reconnect) makes way for a new one, after a growing wait. */
  private reopen(ended: RedisClient): void {
    if (this.subscriber !== ended) return;
    this.lost();
    this.reopenTimer = setTimeout(() => {
      if (this.subscriber === ended) this.connect();
    }, this.reopenMs);
    this.reopenTimer.unref();
    this.reopenMs = Math.min(this.reopenMs * 2, REOPEN_MS.max);
  }

  private lost(): void {
    this.live = false;
    for (const list of this.caches.values()) for (const cache of list) cache.clear();
  }

  /** Live only once Redis confirmed every channel: a message sent before that would be missed. */
  private subscribe(): void {
    const subscriber = this.subscriber;
    if (!subscriber || subscriber.status !== "ready") return;
    this.live = false;
    subscriber.subscribe(...[...this.caches.keys()].map((name) => this.channel(name))).then(
      () => {
        if (this.subscriber !== subscriber || subscriber.status !== "ready") return;
        this.lost();
        this.live = true;
        this.reopenMs = REOPEN_MS.first;
      },
      () => this.lost(),
    );
  }
}
