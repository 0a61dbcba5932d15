export { parseEmailReply } from "./email-reply.ts";
export { htmlToText } from "./html-to-text.ts";
export { rewriteByRules } from "./rewrite-rules.ts";
export { AI_SERVICE_VERSION, AiService, LOCAL_URGENCY_MS } from "./service.ts";
export { entryMessage, type AnalysisEntry, type TicketAnalysis, type TicketAnalysisInput } from "./ticket-analysis.ts";
export { noteByRules } from "./note-rules.ts";
export { EMBEDDING_DIMENSIONS, LOCAL_EMBEDDING_MODEL, hashingEmbedding, normalise, terms } from "./hashing-embedding.ts";
