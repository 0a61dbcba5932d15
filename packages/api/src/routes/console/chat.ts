import express, { type Router } from "express";
import { chatAgentName } from "@mw/domains/knowledge";
import type { AppContext } from "../../context.ts";
import { signedIn, viewer } from "./guard.ts";
import { renderPage } from "./render.ts";

const TICKET_NUMBER = /^[\w-]{1,32}$/;

/**
 * Spec 2, 4.6: the assistant chat. The page is a shell; its module speaks the
 * assistant's staff AJAX (conversations, and the chat's server-sent events).
 * `?ticket=` opens it about one ticket ("this ticket"), `?c=` on a conversation.
 */
export function chatPages(ctx: Pick<AppContext, "prisma" | "sessions">): Router {
  const router = express.Router();

  router.get("/chat", signedIn(ctx, ["staff", "manage_options"]), async (req, res) => {
    const staffId = viewer(res).principal.staffId;
    const ticket = typeof req.query.ticket === "string" && TICKET_NUMBER.test(req.query.ticket) ? req.query.ticket : null;
    const conversation = typeof req.query.c === "string" && /^\d{1,10}$/.test(req.query.c) ? req.query.c : null;
    const name = staffId === null ? null : await chatAgentName(ctx, staffId);
    renderPage(res, "chat", {
      title: "Assistant",
      linked: staffId !== null,
      ticket,
      conversation,
      agentName: name ?? viewer(res).principal.login,
      scripts: staffId === null ? [] : ["chat.js"],
    });
  });
  return router;
}
