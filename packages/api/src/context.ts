import { SessionStore } from "@mw/shared/identity";
import { OptionStore } from "@mw/shared/options";
import { type Connections } from "@mw/shared";

/** What route handlers may use: the process connections plus the session and option stores. */
export interface AppContext extends Connections {
  sessions: SessionStore;
  options: OptionStore;
}

export function createAppContext(connections: Connections): AppContext {
  const { config, redis, prisma } = connections;
  return {
    ...connections,
    sessions: new SessionStore(redis, config.QUEUE_PREFIX, config.SESSION_TTL_SECONDS),
    options: new OptionStore(prisma, config.ENCRYPTION_KEY),
  };
}
