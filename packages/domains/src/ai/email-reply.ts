import { htmlToText, looksLikeHtml } from "./html-to-text.ts";

/**
 * The built-in e-mail reply parser (design 10.2; anchors in the contract
 * sheet: github/email_reply_parser and mailgun/talon): the newest reply of a
 * thread, without the quoted history, signatures and mobile footers. It also
 * runs before every model call on client messages, so the model sees only the
 * new text.
 */

const WROTE_VERBS = "wrote|a écrit|napisał(?:\\(a\\))?|schreef|schrieb|escreveu|skrev|escribió|ha scritto";
const WROTE_OPENERS = "On|Le|W dniu|Op|Am|Em|På|Den|El|Il";
/** "On <date>, <name> wrote:" and its translations, after wrapped lines are joined. */
// The verb ends the line ("... wrote:"), or comes before the sender and a colon ("Am ... schrieb Support <s@x>:").
// The ending is written `\s*(?::\s*)?$`, not `\s*:?\s*$`: two runs of spaces that can share a gap try every split of it.
const ATTRIBUTION = new RegExp(`^\\s*(?:${WROTE_OPENERS})\\s.{0,300}?(?:${WROTE_VERBS})(?:\\s*(?::\\s*)?|\\s.{1,150}:\\s*)$`, "i");
const ATTRIBUTION_START = new RegExp(`^\\s*(?:${WROTE_OPENERS})\\s`, "i");

const ORIGINAL_MESSAGE =
  /^\s*-{2,}\s*(?:Original Message|Reply Message|Ursprüngliche Nachricht|Antwort Nachricht|Oprindelig meddelelse|Message d'origine|Mensaje original|Oorspronkelijk bericht|Wiadomość oryginalna|Messaggio originale)\s*-{2,}\s*$/i;
const FORWARDED = /^\s*(?:-{2,}\s*(?:Forwarded message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado|Doorgestuurd bericht)\s*-{2,}|Begin forwarded message:)\s*$/i;
const HEADER_FROM = /^\s*\*?(?:From|Von|De|Van|Fra|Från|Od|Da)\s*:\*?\s*\S/i;
const HEADER_OTHER = /^\s*\*?(?:Sent|Date|Datum|Gesendet|Envoyé|Enviado|Enviada em|Verzonden|Wysłano|Inviato|Skickat|Sendt|To|An|À|Para|Aan|Do|A|Till|Til|Cc|Subject|Betreff|Objet|Asunto|Assunto|Onderwerp|Temat|Oggetto|Ämne|Emne)\s*:\*?\s*/i;
const UNDERSCORES = /^\s*_{5,}\s*$/;
const QUOTED = /^\s*>/;

const MOBILE_FOOTER =
  /^\s*(?:Sent from my \S+(?:\s\S+){0,3}|Sent via \S+(?:\s\S+){0,9}|Sent from (?:Mail|Outlook|Yahoo Mail|Gmail|ProtonMail|Proton Mail) (?:for|on) \S+(?:\s\S+){0,2}|Get Outlook for (?:iOS|Android)|Von meinem \S+(?:\s\S+){0,2} gesendet|Gesendet von meinem \S+(?:\s\S+){0,2}|Verstuurd vanaf mijn \S+(?:\s\S+){0,2}|Inviato da(?: il mio)? \S+(?:\s\S+){0,2}|Enviado do meu \S+(?:\s\S+){0,2}|Skickat från min \S+(?:\s\S+){0,2}|Envoyé de mon \S+(?:\s\S+){0,2}|Enviado desde mi \S+(?:\s\S+){0,2}|Verzonden vanaf mijn \S+(?:\s\S+){0,2}|Wysłane z mojego \S+(?:\s\S+){0,2})\.?\s*$/i;
const SIGNATURE_DELIMITER = /^\s*--\s*$|^\s*_{3,}\s*$/;
const SIGN_OFF =
  /^\s*(?:thanks (?:&|and) regards|thanks in advance|thank you (?:very much|so much)|thanks (?:a lot|so much)|thanks|thank you|many thanks|thanks again|thx|cheers|regards|best regards|kind regards|warm regards|best wishes|best|sincerely|yours sincerely|all the best|mit freundlichen grüßen|freundliche grüße|mit freundlichen gruessen|viele grüße|beste grüße|liebe grüße|gruß|grüße|mfg|cordialement|bien cordialement|bien à vous|merci|salutations|saludos cordiales|saludos|un saludo|atentamente|met vriendelijke groet(?:en)?|hartelijke groet(?:en)?|groeten|pozdrawiam|z poważaniem|cordiali saluti|distinti saluti|atenciosamente|cumprimentos|med vänliga hälsningar|vänliga hälsningar|med venlig hilsen|venlig hilsen|med vennlig hilsen)\b[\s,.!]*$/i;
/** A name block under a sign-off: a few short lines (name, title, company, phone). */
const NAME_BLOCK_LINES = 6;
const NAME_BLOCK_WIDTH = 60;

/** "On Tue, 3 Nov 2026 at 10:02, Ann Lee <ann@x>\nwrote:" over up to three lines becomes one line. */
function joinWrappedAttributions(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    let joined: string | undefined;
    // A sentence that happens to start like an attribution ("Il sito è ...") ends with its punctuation; a wrapped attribution does not.
    if (ATTRIBUTION_START.test(line) && !ATTRIBUTION.test(line) && !/[.!?]\s*$/.test(line)) {
      for (let span = 1; span <= 2 && i + span < lines.length && lines[i + span]!.trim() && !joined; span += 1) {
        const candidate = lines.slice(i, i + span + 1).map((part) => part.trim()).join(" ");
        if (ATTRIBUTION.test(candidate)) {
          joined = candidate;
          i += span;
        }
      }
    }
    out.push(joined ?? line);
  }
  return out;
}

/** Where the quoted history starts: an attribution line, an "Original Message" splitter, or a block of mail headers. */
function historyStart(lines: string[]): number {
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (ATTRIBUTION.test(line) || ORIGINAL_MESSAGE.test(line)) return i;
    // Outlook's plain text sometimes puts the whole header block on one line.
    if (HEADER_FROM.test(line) && /\b(?:Sent|Date|Gesendet|Envoyé|Enviado|Verzonden|Skickat|Sendt)\s*:/i.test(line.replace(HEADER_FROM, ""))) return i;
    const headerAt = UNDERSCORES.test(line) ? i + 1 : i;
    if (HEADER_FROM.test(lines[headerAt] ?? "")) {
      const next = lines.slice(headerAt + 1, headerAt + 5).filter((candidate) => candidate.trim());
      if (next.some((candidate) => HEADER_OTHER.test(candidate))) return i;
    }
  }
  return -1;
}

/** An inline reply: the history is interleaved with new unquoted text, so it is all the reply. */
function isInlineReply(history: string[]): boolean {
  let sawQuote = false;
  for (const line of history.slice(1)) {
    if (QUOTED.test(line)) sawQuote = true;
    else if (sawQuote && line.trim() && !SIGNATURE_DELIMITER.test(line) && !MOBILE_FOOTER.test(line)) return true;
  }
  return false;
}

function trimBlankEdges(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start]!.trim()) start += 1;
  while (end > start && !lines[end - 1]!.trim()) end -= 1;
  return lines.slice(start, end);
}

/** Mobile footers, a "-- " signature and a sign-off with its short name block, from the bottom of the reply. */
function stripSignature(lines: string[]): string[] {
  let kept = lines.filter((line) => !MOBILE_FOOTER.test(line));
  const delimiter = kept.findIndex((line, i) => i > 0 && SIGNATURE_DELIMITER.test(line));
  if (delimiter > 0) kept = kept.slice(0, delimiter);
  kept = trimBlankEdges(kept);
  // The sign-off: among the last lines, followed only by short lines (a name, a title, a phone number).
  for (let i = Math.max(1, kept.length - NAME_BLOCK_LINES - 1); i < kept.length; i += 1) {
    if (!SIGN_OFF.test(kept[i]!)) continue;
    const tail = kept.slice(i + 1).filter((line) => line.trim());
    if (tail.length <= NAME_BLOCK_LINES && tail.every((line) => line.trim().length <= NAME_BLOCK_WIDTH)) {
      kept = kept.slice(0, i);
      break;
    }
  }
  return trimBlankEdges(kept);
}

/** The newest reply of an e-mail thread (plain text or HTML, any line endings). */
export function parseEmailReply(thread: string): string {
  const text = (looksLikeHtml(thread) ? htmlToText(thread) : thread).replace(/\r\n?/g, "\n").replace(/\u00a0/g, " ");
  // trimEnd() strips what `\s+$` would, in one scan; the regex retries from every space of a run within the line.
  let lines = joinWrappedAttributions(text.split("\n").map((line) => line.trimEnd()));
  // A forward keeps what it forwards: that is the message.
  const forwarded = lines.findIndex((line) => FORWARDED.test(line));
  const start = historyStart(lines);
  if (start >= 0 && (forwarded < 0 || forwarded > start)) {
    const history = lines.slice(start);
    if (isInlineReply(history)) {
      // Keep the interleaved answers, without the trailing quote block under the last one.
      let end = lines.length;
      while (end > start && (!lines[end - 1]!.trim() || QUOTED.test(lines[end - 1]!))) end -= 1;
      lines = lines.slice(0, end);
      return trimBlankEdges(lines).join("\n");
    }
    lines = lines.slice(0, start);
  } else if (forwarded < 0) {
    // No attribution: a trailing block of ">" lines is the quote.
    let end = lines.length;
    while (end > 0 && (!lines[end - 1]!.trim() || QUOTED.test(lines[end - 1]!))) end -= 1;
    lines = lines.slice(0, end);
  }
  return stripSignature(lines)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n");
}
