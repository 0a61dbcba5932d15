import { errors } from "@mw/platform/core";
import { jobRef } from "@mw/platform/queues";
import { embedDocumentJob, embedDocumentJobId, importDocument, type DocumentSource } from "@mw/domains/knowledge";
import type { Command } from "./command.ts";
import { inputFile } from "./input-file.ts";

const DOCUMENT_SOURCES = ["wiki", "docs", "brand"] as const;

export const knowledgeCommands: Record<string, Command> = {
  "knowledge:add": {
    queues: true,
    arguments: [{ name: "PATH_OR_URL", description: "a Markdown, text or HTML file, or an http(s) URL" }],
    options: {
      source: { type: "string", required: true, description: "wiki (docs-<id>), docs (<path-slug>) or brand (<domain>)" },
      title: { type: "string", description: "the title (default: the HTML title, the first # heading, or the name)" },
    },
    async run(deps, values, args) {
      const source = values.source as string;
      if (!DOCUMENT_SOURCES.includes(source as DocumentSource)) throw errors.invalidInput(`--source must be one of ${DOCUMENT_SOURCES.join(", ")}`);
      const location = args[0]!;
      // A local file is checked here for a one-line answer; the document keeps the name as given (the docs source's id is its slug).
      if (!/^https?:\/\//i.test(location)) inputFile(location);
      const document = await importDocument(deps, { source: source as DocumentSource, location, title: values.title as string | undefined });
      const job = await deps.queues.add(embedDocumentJob, { document_id: document.id }, { jobId: embedDocumentJobId(document.id, document.updated_at) });
      return { document_id: document.id, vector_id: document.vector_id, source, title: document.title, chars: document.content.length, job_id: jobRef("knowledge", job.id!) };
    },
  },
};
