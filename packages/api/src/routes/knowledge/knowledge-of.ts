import { Knowledge } from "@mw/domains/knowledge";
import type { AppContext } from "../../context.ts";

const byContext = new WeakMap<object, Knowledge>();

/** The API process's knowledge index (its search threads start on the first question). */
export function knowledgeOf(ctx: Pick<AppContext, "ai" | "config" | "logger" | "options" | "prisma">): Knowledge {
  let knowledge = byContext.get(ctx);
  if (!knowledge) {
    knowledge = new Knowledge(ctx);
    byContext.set(ctx, knowledge);
  }
  return knowledge;
}
