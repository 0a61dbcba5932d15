/**
 * What the built-in urgency engine reads in a ticket: the rubric's concepts
 * (outage, money, data loss, security, workaround, scope; docs/urgency-engine.md)
 * as word and phrase lists, found by looking up the text's word sequences,
 * so the time is linear in the text and no pattern can backtrack. The model
 * (urgency-rules.ts) weighs them; scripts/train-urgency.ts learns the weights.
 */

/**
 * How much of a subject and of a body is read: what makes a ticket urgent is
 * said in its first lines; past this a body is pasted logs or data.
 */
const READ_CHARS = 20_000;

/** Longest phrase, in words, that a concept lists. */
const MAX_PHRASE = 4;

/** Crude suffix stripping, applied alike to the text and to the lists, so "orders", "ordered" and "order" meet. */
export function stem(word: string): string {
  for (const suffix of ["ing", "ed", "s"]) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

const CONTRACTIONS: Record<string, string> = { cant: "cannot", wont: "will not", dont: "do not", doesnt: "does not", didnt: "did not", isnt: "is not", arent: "are not", wasnt: "was not", werent: "were not", couldnt: "could not", havent: "have not", hasnt: "has not" };

/** One token of letters, digits and apostrophes, lower case, as words: contractions opened ("can't" → "cannot"), stemmed. */
function tokenWords(token: string): string[] {
  const word = token.includes("'") ? token.replace(/'/g, "") : token;
  if (!word) return [];
  const opened = CONTRACTIONS[word] ?? (word.endsWith("nt") && token.endsWith("n't") ? `${word.slice(0, -2)} not` : word);
  return opened.split(" ").map(stem);
}

const TOKEN = /[\p{L}\p{N}%']+|[.?;\n]/gu;

/**
 * The text's sentences (split at . ? ; and line ends) as word lists, in one
 * scan: a text of a million empty lines is one scan, not a million. Repeated
 * tokens are read once.
 */
function sentences(text: string): string[][] {
  const out: string[][] = [];
  const seen = new Map<string, string[]>();
  let current: string[] = [];
  for (const [token] of text.toLowerCase().replace(/[’‘`]/g, "'").matchAll(TOKEN)) {
    if (token.length === 1 && ".?;\n".includes(token)) {
      if (current.length) out.push(current);
      current = [];
      continue;
    }
    let read = seen.get(token);
    if (!read) seen.set(token, (read = tokenWords(token)));
    for (const word of read) current.push(word);
  }
  if (current.length) out.push(current);
  return out;
}

/** The words of a text, as `sentences` reads them. */
export function words(text: string): string[] {
  return sentences(text).flat();
}

/** Each concept: the phrases that show it. Written from the rubric and ordinary support wording, not from the labelled tickets. */
const CONCEPTS: Record<string, string[]> = {
  outage: [
    "down", "offline", "outage", "downtime", "not responding", "unreachable", "not reachable", "blank page", "white page", "white screen", "error page", "500", "502", "503", "504",
    "bad gateway", "time out", "times out", "timeout", "crash", "crashes", "crashed", "maintenance page", "unavailable", "switched off", "refuses all", "refuse all", "dead",
    "nothing works", "nothing is working", "cannot log in", "cannot login", "not able to login", "not able to log in", "unable to log in", "locked out", "cannot reach", "cannot access",
    "does not load", "not loading", "not able to make login", "cannot work", "barely loads", "connection error", "database error", "not work", "does not work", "not working", "stopped working", "broken",
  ],
  everyone: [
    "all", "every", "everyone", "everybody", "nobody", "no one", "none", "not one", "whole", "entire", "company", "all users", "all customers", "all of them", "for everyone", "any",
    "completely", "total", "at all", "for us", "our site", "our website", "our shop", "the shop", "the site", "the website", "the app", "the platform",
  ],
  some: [
    "some", "a few", "few", "one customer", "a customer", "one user", "my account", "only", "one of", "part of", "a third", "half", "others are fine", "others fine", "are fine",
    "is fine", "not affected", "sometimes", "occasionally", "one card",
  ],
  money: [
    "order", "orders", "payment", "payments", "pay", "paid", "checkout", "cart", "sale", "sales", "sell", "sold", "revenue", "refund", "refunds", "price", "prices", "vat", "tax",
    "charged", "coupon", "discount", "donate", "donation", "money", "costs us", "losing", "lose", "customers", "transaction", "transactions", "card", "ideal", "paypal", "sign up",
    "signup", "invoice run", "subscriptions",
  ],
  fulfilment: ["warehouse", "ship", "shipping", "shipment", "shipments", "picking", "erp", "deliveries", "delivery", "fulfilment", "fulfillment", "pack", "packing", "dispatch"],
  blocked: [
    "cannot", "can not", "unable", "not able", "nobody can", "no one can", "nothing to", "stopped", "stop", "fail", "fails", "failed", "failing", "error", "errors", "broken",
    "does not work", "not working", "refused", "declined", "rejected", "stuck", "not go", "not reach", "not arrive", "no longer", "not sent", "never", "waiting",
  ],
  lost: ["deleted", "gone", "lost", "disappeared", "empty", "wiped", "removed", "missing", "corrupted", "corrupt", "not saved", "overwritten", "vanished", "erased", "no backup"],
  data: ["data", "records", "record", "notes", "files", "file", "tasks", "rows", "table", "attachments", "database", "documents", "emails", "mailbox", "photos", "contacts", "projects", "entries"],
  backup: ["backup", "backups", "raid", "disk", "replica", "replication", "storage", "no space", "space left", "snapshot"],
  breach: [
    "hacked", "hack", "breach", "compromised", "ransomware", "malware", "defaced", "leaked", "leak", "none of us created", "nobody created", "did not write", "did not create",
    "unknown location", "logged in successfully", "phishing", "deceptive", "bitcoin", "ddos", "attack", "suspicious", "intrusion", "stolen", "unauthorised", "unauthorized",
    "other users", "somebody else", "another customer", "meant for other", "strange files", "none of our staff",
  ],
  vulnerability: ["vulnerability", "vulnerable", "cve", "exploit", "password", "permissions", "should not be possible", "brute force", "login attempts", "security", "scanner", "exposed"],
  workaround: [
    "for now", "in the meantime", "meanwhile", "by hand", "manually", "still work", "still works", "instead", "can still", "workaround", "work around",
    "temporarily", "still get", "still receive", "still reach", "still be reached", "still take", "still use", "still ship", "still go", "as an alternative", "alternative", "other option", "nothing is lost", "double check", "by phone", "can use",
  ],
  risk: ["if", "will", "would", "could", "may", "might", "risk", "soon", "expires", "expire", "about to", "almost", "growing", "going to", "before", "warning", "reminder", "reports that"],
  contained: ["so far", "blocked so far", "no sign", "no signs", "not seen", "have not seen", "nobody has", "nothing happened", "as far as we know", "yet"],
  no_workaround: ["no other way", "no workaround", "no alternative", "only way", "no way"],
  question: ["how", "what", "why", "is it possible", "would it be possible", "question", "do we need", "can we", "does your", "is the", "wonder", "cost", "what would"],
  scope: [
    "would like", "would love", "please add", "add", "new", "replace", "swap", "design", "prepare", "translate", "quote", "plan", "planned", "schedule", "scheduled", "feature",
    "idea", "ideas", "wish", "wishes", "suggestion", "would be helpful", "evaluating", "budget", "copy of", "upgrade", "migration", "review", "next month", "next week",
    "next quarter", "next year", "future", "launch", "launching",
  ],
  no_rush: ["no deadline", "no hurry", "no rush", "not urgent", "nothing urgent", "when you have", "when you get", "not a big deal", "no problem", "just wanted", "just passing", "at some point"],
  cosmetic: [
    "typo", "logo", "colour", "color", "font", "banner", "photo", "image", "icon", "icons", "button", "title", "label", "labels", "text", "texts", "blurry", "popup", "spelling",
    "misspelled", "rounder", "darker", "slogan", "sidebar", "layout", "sort", "annoying",
  ],
  soon: ["expires", "expire", "expiring", "tomorrow", "in two days", "in 2 days", "deadline", "by then", "due", "before", "friday", "campaign", "holidays", "tonight", "today"],
  slow: ["slow", "slowly", "slower", "seconds", "delay", "delayed", "late", "lag", "behind", "minute", "minutes"],
  resolved: ["works again", "working again", "works now", "working now", "all good", "good now", "back up", "back online", "resolved", "fixed", "sorted", "now it works", "it works again"],
  urgent_words: ["urgent", "asap", "immediately", "right now", "fast", "quick", "emergency", "now", "today"],
  billing: ["invoice", "invoices", "billing", "subscription", "debit", "reminder", "overdue", "vat number", "accountant", "bookkeeping"],
};

/** Concepts that say more together, in one sentence: "orders" and "not reaching", "data" and "gone". */
const TOGETHER: Array<[string, string]> = [
  ["money", "blocked"],
  ["fulfilment", "blocked"],
  ["data", "lost"],
  ["backup", "blocked"],
  ["backup", "lost"],
  ["everyone", "outage"],
  ["everyone", "blocked"],
  ["some", "blocked"],
  ["money", "outage"],
  ["breach", "data"],
  ["everyone", "money"],
];

/** Each concept's phrases as stemmed word sequences. */
const PHRASES: Map<string, string[]> = (() => {
  const index = new Map<string, string[]>();
  for (const [concept, phrases] of Object.entries(CONCEPTS)) {
    for (const phrase of phrases) {
      const key = words(phrase).join(" ");
      index.set(key, [...(index.get(key) ?? []), concept]);
    }
  }
  return index;
})();

/** The concepts of a run of words. */
function conceptsIn(sequence: string[]): Set<string> {
  const found = new Set<string>();
  for (let start = 0; start < sequence.length; start += 1) {
    let phrase = "";
    for (let end = start; end < start + MAX_PHRASE && end < sequence.length; end += 1) {
      phrase = end === start ? sequence[end]! : `${phrase} ${sequence[end]!}`;
      for (const concept of PHRASES.get(phrase) ?? []) found.add(concept);
    }
  }
  return found;
}

/**
 * The features of a ticket: `c:<concept>` for each concept anywhere,
 * `t:<a>+<b>` for two concepts in one sentence, `s:<concept>` for a concept
 * in the subject.
 */
export function urgencyFeatures(fullSubject: string, fullBody: string): string[] {
  const subject = fullSubject.slice(0, READ_CHARS);
  const body = fullBody.slice(0, READ_CHARS);
  const features = new Set<string>();
  for (const concept of conceptsIn(words(subject))) features.add(`s:${concept}`);
  for (const sentence of sentences(`${subject}\n${body}`)) {
    const found = conceptsIn(sentence);
    for (const concept of found) features.add(`c:${concept}`);
    for (const [a, b] of TOGETHER) if (found.has(a) && found.has(b)) features.add(`t:${a}+${b}`);
  }
  if (body.includes("?") || subject.includes("?")) features.add("c:asks");
  if (body.includes("!!") || subject.includes("!!")) features.add("c:urgent_words");
  return [...features].sort();
}

/** The spec's workaround modifier (spec 2, 4.1 rule 1): the sender names a way to keep going, and does not say there is none. */
export function hasWorkaround(features: string[]): boolean {
  return features.includes("c:workaround") && !features.includes("c:no_workaround");
}
