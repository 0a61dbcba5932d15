import { isUniqueViolation } from "@mw/shared";

/** Two runs of one case may both find no row and both insert: the loser's retry finds the row and updates it. */
export async function upsertOnce<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return write();
  }
}
