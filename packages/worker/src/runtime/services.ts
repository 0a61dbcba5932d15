import type { Connections } from "@mw/platform";
import { AiService } from "@mw/domains/ai";
import { openOptionStore, type OptionStore } from "@mw/domains/options";

interface ProcessServices {
  options: OptionStore;
  ai: AiService;
}

const byProcess = new WeakMap<Connections["prisma"], ProcessServices>();

/** One option store and AI service per worker process, for every domain's jobs: their caches are what make them cheap. */
export function processServices(ctx: Pick<Connections, "config" | "prisma" | "redis" | "logger">): ProcessServices {
  let services = byProcess.get(ctx.prisma);
  if (!services) {
    const options = openOptionStore(ctx);
    services = { options, ai: new AiService({ config: ctx.config, options, redis: ctx.redis, logger: ctx.logger }) };
    byProcess.set(ctx.prisma, services);
  }
  return services;
}
