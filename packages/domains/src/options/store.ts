import type { Connections } from "@mw/platform/connections";
import { AppError } from "@mw/platform/core";
import { decryptSecret, encryptSecret } from "@mw/platform/crypto";
import type { PrismaClient } from "@mw/platform/database";
import { isOptionName, OPTIONS, type OptionName, type OptionValue } from "./definitions.ts";

/** How long a process trusts what it read: a change made elsewhere is seen within this. */
export const OPTIONS_CACHE_MS = 2_000;

/** What a read shows: plain values as they are, secrets only as set or not. */
type OptionsView = Record<string, unknown>;

function invalid(message: string): AppError {
  return new AppError(400, "invalid_params", message);
}

/**
 * The one typed accessor for run-time options (design 10.2): stored rows over
 * the defaults of OPTIONS. Every process reads through its own short cache, so
 * a change made by any process (REST, CLI) is seen everywhere within twice
 * OPTIONS_CACHE_MS without a message bus.
 */
export class OptionStore {
  /** Decoded values (secrets decrypted once per refresh, not per read): reads sit on request paths. */
  private cached?: { at: number; values: Map<string, unknown> };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly key: Buffer,
    private readonly cacheMs = OPTIONS_CACHE_MS,
  ) {}

  private refreshing?: Promise<Map<string, unknown>>;
  /** Bumped by every write: a read that started before it must not overwrite what the write cleared. */
  private generation = 0;

  /**
   * Values younger than cacheMs are served from memory. Up to twice that,
   * they are still served and refreshed behind the caller, so a busy process
   * never waits on the database for them (they sit on hot paths); older
   * values are read again first, so a process that sat idle never acts on an
   * old value. Concurrent readers share one query.
   */
  private async values(): Promise<Map<string, unknown>> {
    const cached = this.cached;
    const age = cached ? Date.now() - cached.at : Infinity;
    if (age < this.cacheMs) return cached!.values;
    if (age < 2 * this.cacheMs) {
      // A failed refresh keeps the values last read; the next read tries again.
      this.refresh().catch(() => undefined);
      return cached!.values;
    }
    return this.refresh();
  }

  private refresh(): Promise<Map<string, unknown>> {
    if (this.refreshing) return this.refreshing;
    const refreshing = this.load().finally(() => {
      if (this.refreshing === refreshing) this.refreshing = undefined;
    });
    this.refreshing = refreshing;
    return refreshing;
  }

  private async load(): Promise<Map<string, unknown>> {
    const generation = this.generation;
    const rows = await this.prisma.option.findMany();
    const values = new Map(rows.map((row) => [row.name, JSON.parse(row.secret ? decryptSecret(row.value, this.key) : row.value) as unknown]));
    if (generation === this.generation) this.cached = { at: Date.now(), values };
    return values;
  }

  async get<N extends OptionName>(name: N): Promise<OptionValue<N>> {
    const values = await this.values();
    return (values.has(name) ? values.get(name) : OPTIONS[name].default) as OptionValue<N>;
  }

  /**
   * Validates every change first, then writes them all in one transaction:
   * a bad value leaves every option as it was. `null` returns an option to
   * its default (for a secret: unset).
   */
  async set(changes: Record<string, unknown>): Promise<void> {
    const writes: { name: OptionName; value: unknown }[] = [];
    for (const [name, value] of Object.entries(changes)) {
      if (!isOptionName(name)) throw invalid(`Unknown option: ${name}.`);
      if (value === null) {
        writes.push({ name, value: null });
        continue;
      }
      const parsed = OPTIONS[name].schema.safeParse(value);
      if (!parsed.success) throw invalid(`${name}: ${parsed.error.issues[0]!.message}`);
      writes.push({ name, value: parsed.data });
    }
    await this.prisma.$transaction(
      writes.map(({ name, value }) => {
        if (value === null) return this.prisma.option.deleteMany({ where: { name } });
        const secret = "secret" in OPTIONS[name];
        const stored = secret ? encryptSecret(JSON.stringify(value), this.key) : JSON.stringify(value);
        return this.prisma.option.upsert({ where: { name }, create: { name, value: stored, secret }, update: { value: stored, secret } });
      }),
    );
    this.generation += 1;
    this.cached = undefined;
    this.refreshing = undefined;
  }

  /** Every option for an admin: values of plain ones, `<name>_set` for secrets. */
  async view(): Promise<OptionsView> {
    const view: OptionsView = {};
    for (const name of Object.keys(OPTIONS) as OptionName[]) {
      const value = await this.get(name);
      if ("secret" in OPTIONS[name]) view[`${name}_set`] = value !== null;
      else view[name] = value;
    }
    return view;
  }
}

/** An option store over a process's database, with its encryption key for secrets. */
export function openOptionStore({ prisma, config }: Pick<Connections, "prisma" | "config">): OptionStore {
  return new OptionStore(prisma, config.ENCRYPTION_KEY);
}
