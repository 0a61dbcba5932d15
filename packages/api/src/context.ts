import { SessionStore } from "@mw/shared/identity";
import { type Connections } from "@mw/shared";

/** What route handlers may use: the process connections plus the session store. */
export interface AppContext extends Connections {
  sessions: SessionStore;
}

export function createAppContext(connections: Connections): AppContext {
  const { config, redis } = connections;
  return { ...connections, sessions: new SessionStore(redis, config.QUEUE_PREFIX, config.SESSION_TTL_SECONDS) };
}
