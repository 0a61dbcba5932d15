import { pipeline } from "node:stream/promises";
import type { Response } from "express";
import type { Logger, StoredObject } from "@mw/platform";

/**
 * Streams a stored object as the answer, headers already set by the caller.
 * Once bytes have gone out there is no error answer left to give: the socket
 * is cut, so the client sees a short body rather than a wrong one.
 */
export async function sendObject(logger: Logger, object: StoredObject, key: string, res: Response): Promise<void> {
  let storageFailure: unknown;
  object.body.once("error", (error) => (storageFailure = error));
  try {
    await pipeline(object.body, res);
  } catch (error) {
    if (storageFailure) logger.error("storage stream failed", { key, error: storageFailure });
    else logger.debug("client went away mid-download", { key, error: (error as Error).message });
    res.destroy();
  }
}
