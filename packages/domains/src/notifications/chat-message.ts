import type { Connections, JobRun } from "@mw/platform";
import { postChatMessage } from "@mw/providers/chat";

/** Posts to CHAT_WEBHOOK_URL (from the environment, trusted): the job carries only its text, so a forged job cannot name where it goes. */
export async function sendChatMessage(deps: Pick<Connections, "config"> & Pick<JobRun, "log">, text: string) {
  const posted = await postChatMessage(deps.config, text);
  deps.log.info("chat message posted", posted);
  return posted;
}
