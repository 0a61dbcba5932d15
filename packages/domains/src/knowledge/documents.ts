import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { htmlToText } from "../ai/index.ts";
import { errors } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import type { PrismaClient } from "@mw/platform/database";
import { truncateCodePoints } from "@mw/platform/text";
import { egressGuard, type EgressGuard } from "@mw/platform/egress";
import { createHttpClient, upstreamCall } from "@mw/platform/http";

export type DocumentSource = "wiki" | "docs" | "brand";

/** `<path-slug>` of spec 2, 2.4: the path's words joined by dashes, without the file extension. */
export function pathSlug(location: string): string {
  const path = /^https?:\/\//i.test(location) ? new URL(location).pathname : location;
  const slug = path
    .replace(/\.(md|markdown|txt|html?)$/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    // Dashes come single from the line above; `-+$` would rescan a run from each of its dashes.
    .replace(/^-|-$/g, "");
  return truncateCodePoints(slug || "index", 180);
}

/** `<domain>`: the URL's host, or a file named after its domain (`acme.example.md`). */
function brandDomain(location: string): string {
  if (/^https?:\/\//i.test(location)) return new URL(location).hostname.replace(/^www\./, "");
  return (location.split(/[\\/]/).pop() ?? location).replace(/\.(md|markdown|txt|html?)$/i, "").toLowerCase();
}

/**
 * Stores a wiki article, documentation page or brand description (`pnpm cli
 * knowledge:add`); the same source and location again replaces its content.
 * Its vector id follows spec 2, 2.4: `docs-<id>`, `<path-slug>` or `<domain>`.
 */
export async function saveDocument(prisma: PrismaClient, input: { source: DocumentSource; location: string; title: string; content: string }) {
  const fields = { title: truncateCodePoints(input.title, 255), content: input.content };
  const document = await prisma.knowledgeDocument.upsert({ where: { source_location: { source: input.source, location: input.location } }, create: { source: input.source, location: input.location, ...fields }, update: fields });
  const vectorId = input.source === "wiki" ? `docs-${document.id}` : input.source === "docs" ? pathSlug(input.location) : brandDomain(input.location);
  return document.vector_id === vectorId ? document : prisma.knowledgeDocument.update({ where: { id: document.id }, data: { vector_id: vectorId } });
}

/**
 * The text of the first `<title>`, as `/<title[^>]*>([^<]+)<\/title>/i` finds
 * it. Every `<title` before the same `>` leads to the same text, so only the
 * first of them is read: the regex scanned from each one to the `>`.
 */
function htmlTitle(html: string): string | undefined {
  const start = /<title/gi;
  const text = /([^<]+)<\/title>/iy;
  let tagEnd = -1;
  for (let found = start.exec(html); found; found = start.exec(html)) {
    if (found.index < tagEnd) continue;
    tagEnd = html.indexOf(">", start.lastIndex);
    if (tagEnd < 0) return undefined;
    text.lastIndex = tagEnd + 1;
    const title = text.exec(html);
    if (title) return title[1];
  }
  return undefined;
}

/**
 * A document's title and text: HTML is reduced to its text (title from
 * <title>), Markdown and plain text kept (title from the first `# ` heading),
 * else `fallback`.
 */
export function documentContent(raw: string, html: boolean, fallback: string): { title: string; content: string } {
  const heading = html ? htmlTitle(raw) : /^#\s+(\S.*)$/m.exec(raw)?.[1];
  return { title: (heading ?? fallback).trim(), content: html ? htmlToText(raw) : raw.trim() };
}

/** A file or URL as text with a title (documentContent); without a title of its own, the file or page name. A URL goes through the egress guard. */
async function readDocument(location: string, timeoutMs: number, egress: EgressGuard): Promise<{ title: string; content: string }> {
  let raw: string;
  let html: boolean;
  if (/^https?:\/\//i.test(location)) {
    const response = await upstreamCall("Document URL", () => createHttpClient({ timeoutMs, egress }).get(location));
    raw = response.body;
    html = /html/i.test(String(response.headers["content-type"] ?? "")) || /^\s*<(!doctype|html)/i.test(raw);
  } else {
    raw = await readFile(location, "utf8");
    html = /\.html?$/i.test(location);
  }
  return documentContent(raw, html, /^https?:/i.test(location) ? new URL(location).hostname + new URL(location).pathname : basename(location));
}

/** knowledge:add: the file or URL read and stored under its source (a title given wins over the one read); one without text is refused. */
export async function importDocument(deps: { prisma: PrismaClient; config: Pick<Config, "HTTP_TIMEOUT_MS" | "ALLOW_PRIVATE_URLS"> }, input: { source: DocumentSource; location: string; title?: string }) {
  const read = await readDocument(input.location, deps.config.HTTP_TIMEOUT_MS, egressGuard(deps.config));
  if (!read.content) throw errors.invalidInput(`${input.location} holds no text`);
  return saveDocument(deps.prisma, { source: input.source, location: input.location, title: input.title ?? read.title, content: read.content });
}

/**
 * Every added document read again from its file or URL (the daily refresh):
 * one whose text changed is stored (its title kept: it may have been given by
 * hand) and answered, for embedding again; one that cannot be read keeps its
 * text and is logged, so a site that is down for a day loses nothing.
 */
export async function refreshDocuments(deps: { prisma: PrismaClient; config: Pick<Config, "HTTP_TIMEOUT_MS" | "ALLOW_PRIVATE_URLS">; log: Logger }) {
  const egress = egressGuard(deps.config);
  const documents = await deps.prisma.knowledgeDocument.findMany({ select: { id: true, location: true, content: true }, orderBy: { id: "asc" } });
  const changed: { id: number; updated_at: Date }[] = [];
  const failed: { id: number; location: string; error: string }[] = [];
  for (const document of documents) {
    try {
      const read = await readDocument(document.location, deps.config.HTTP_TIMEOUT_MS, egress);
      if (!read.content || read.content === document.content) continue;
      changed.push(await deps.prisma.knowledgeDocument.update({ where: { id: document.id }, data: { content: read.content }, select: { id: true, updated_at: true } }));
    } catch (error) {
      failed.push({ id: document.id, location: document.location, error: (error as Error).message });
      deps.log.warn("knowledge document could not be read again; its stored text is kept", { document_id: document.id, location: document.location, error: (error as Error).message });
    }
  }
  return { checked: documents.length, changed, failed };
}
