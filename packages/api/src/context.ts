import { SessionStore } from "@mw/shared/identity";
import { type Services } from "@mw/shared";

/** What route handlers may use: the process services plus the session store. */
export interface AppContext extends Services {
  sessions: SessionStore;
}

export function createAppContext(services: Services): AppContext {
  const { config, redis } = services;
  return { ...services, sessions: new SessionStore(redis, config.QUEUE_PREFIX, config.SESSION_TTL_SECONDS) };
}
