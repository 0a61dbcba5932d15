import { conversationTitleJob, documentsRefreshJob, embedDocumentJob, embeddingsJob, reembedTicketJob, syncAllJob, syncSiteJob } from "@mw/domains/knowledge";
import { handle } from "../../runtime/processor.ts";
import { conversationTitle, documentsRefresh, embedDocument, embeddings, reembedOneTicket, syncAllSources, syncOneSite } from "./knowledge.ts";

export const knowledgeHandlers = [
  handle(embeddingsJob, embeddings),
  handle(syncAllJob, syncAllSources),
  handle(syncSiteJob, syncOneSite),
  handle(reembedTicketJob, reembedOneTicket),
  handle(embedDocumentJob, embedDocument),
  handle(documentsRefreshJob, documentsRefresh),
  handle(conversationTitleJob, conversationTitle),
];
