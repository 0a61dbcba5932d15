import { z } from "zod";
import type { AiService } from "../ai/index.ts";
import type { PrismaClient } from "@mw/platform/database";
import { trimEndChars } from "@mw/platform/text";

/* A staff member's assistant conversations: only their own are ever listed, read or deleted. */

type Deps = { prisma: PrismaClient };

/** The staff member's conversations, most recently active first (at most 100). */
export function listConversations(deps: Deps, staffId: number) {
  return deps.prisma.assistantConversation.findMany({ where: { staff_id: staffId }, orderBy: [{ updated: "desc" }, { id: "desc" }], take: 100 });
}

export function startConversation(deps: Deps, staffId: number, title: string | null) {
  return deps.prisma.assistantConversation.create({ data: { staff_id: staffId, title } });
}

/** One of the staff member's conversations with its messages, oldest first; null when it is not theirs. */
export function conversationWithMessages(deps: Deps, staffId: number, id: number) {
  return deps.prisma.assistantConversation.findFirst({ where: { id, staff_id: staffId }, include: { messages: { orderBy: { id: "asc" } } } });
}

/** Deletes one of the staff member's conversations with its messages; false when it is not theirs. */
export async function deleteConversation(deps: Deps, staffId: number, id: number): Promise<boolean> {
  const { count } = await deps.prisma.assistantConversation.deleteMany({ where: { id, staff_id: staffId } });
  return count > 0;
}

/** A title of at most 8 words from the first question: the assistant model's, or its first words without a provider key. */
export async function titleConversation(deps: Deps & { ai: AiService }, conversationId: number) {
  const conversation = await deps.prisma.assistantConversation.findUnique({ where: { id: conversationId } });
  if (!conversation) return { skipped: "conversation_deleted" };
  if (conversation.title) return { title: conversation.title, skipped: "titled" };
  const first = await deps.prisma.assistantMessage.findFirst({ where: { conversation_id: conversation.id, role: "user" }, orderBy: { id: "asc" } });
  if (!first) return { skipped: "no_message" };
  let title: string;
  if (await deps.ai.hasProvider()) {
    const answer = await deps.ai.askAssistant(
      {
        system: "Give a conversation a short title (2 to 8 words, no quotes, no trailing full stop) from the staff member's first question. Answer JSON: {\"title\": \"...\"}.",
        prompt: first.content,
        jsonSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
      },
      z.object({ title: z.string().trim().min(1).max(120) }),
    );
    title = answer.value.title;
  } else {
    title = first.content.replace(/\s+/g, " ").trim().split(" ").slice(0, 8).join(" ");
  }
  title = trimEndChars(title, ".\"'").slice(0, 255);
  // Only an untitled conversation: a retried job never overwrites.
  await deps.prisma.assistantConversation.updateMany({ where: { id: conversation.id, title: null }, data: { title } });
  return { title };
}
