import { conversationTitleJob, documentsRefreshJob, embedDocumentJob, embeddingsJob, knowledgeRetentionJob, reembedTicketJob, syncAllJob, syncSiteJob } from "@mw/domains/knowledge";
import { handle } from "../../runtime/processor.ts";
import { conversationTitle, documentsRefresh, embedDocument, embeddings, reembedOneTicket, syncAllSources, syncOneSite } from "./knowledge.ts";
import { knowledgeRetention } from "./retention.ts";

export const knowledgeHandlers = [
  handle(embeddingsJob, embeddings),
  handle(syncAllJob, syncAllSources),
  handle(syncSiteJob, syncOneSite),
  handle(reembedTicketJob, reembedOneTicket),
  handle(embedDocumentJob, embedDocument),
  handle(documentsRefreshJob, documentsRefresh),
  handle(conversationTitleJob, conversationTitle),
  handle(knowledgeRetentionJob, knowledgeRetention),
];
