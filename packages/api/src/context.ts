import { AiService } from "@mw/domains/ai";
import { SessionStore } from "@mw/domains/identity";
import { KnownSkus } from "@mw/domains/inventory";
import { SiteKeys } from "@mw/domains/sites";
import { OptionStore } from "@mw/domains/options";
import { type Connections } from "@mw/platform";

/** What route handlers may use: the process connections plus the session and option stores and the AI service. */
export interface AppContext extends Connections {
  sessions: SessionStore;
  options: OptionStore;
  ai: AiService;
  siteKeys: SiteKeys;
  knownSkus: KnownSkus;
}

export function createAppContext(connections: Connections): AppContext {
  const { config, redis, hotRedis, prisma, logger } = connections;
  const options = new OptionStore(prisma, config.ENCRYPTION_KEY);
  return {
    ...connections,
    sessions: new SessionStore(redis, config.QUEUE_PREFIX, config.SESSION_TTL_SECONDS),
    options,
    ai: new AiService({ config, options, redis: hotRedis, logger }),
    siteKeys: new SiteKeys(prisma, connections.invalidation),
    knownSkus: new KnownSkus(prisma, connections.invalidation),
  };
}
