import { QueuedMarks, SessionStore, type Services } from "@mw/shared";

/** What route handlers may use: the process services plus what only the API keeps. */
export interface AppContext extends Services {
  sessions: SessionStore;
  /** Batched `queued_at` marks of webhook rows (flushed by close()). */
  queuedMarks: QueuedMarks;
}

export function createAppContext(services: Services): AppContext {
  const { config, redis, sql, logger } = services;
  const queuedMarks = new QueuedMarks(sql, (error) => logger.warn("could not mark webhooks queued", { error }));
  return {
    ...services,
    sessions: new SessionStore(redis, config.QUEUE_PREFIX, config.SESSION_TTL_SECONDS),
    queuedMarks,
    async close() {
      await queuedMarks.flush();
      await services.close();
    },
  };
}
