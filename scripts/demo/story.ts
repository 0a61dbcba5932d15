// The support desk of `pnpm demo`: the tickets osTicket would signal, their
// thread entries in order, and the urgency the demo's model reads in each
// message that changes it.

/** What the demo's model answers for a thread whose latest scored entry is this one. */
export interface Reading {
  percentage: number;
  hours: number;
  summary: string;
  title: string;
}

export interface StoryEntry {
  type: "M" | "R" | "N";
  text: string;
  reading?: Reading;
}

export interface StoryTicket {
  id: number;
  subject: string;
  organisation: { id: number; name: string };
  client: { name: string; email: string };
  is_vip: boolean;
  customer_type: string;
  /** Linked to a Harvest project (time can be logged on it). */
  project?: { budget_hours: number; quoted_hours: number };
  entries: StoryEntry[];
}

const ACME = { id: 7, name: "ACME Shop" };
const BLOOM = { id: 8, name: "Bloom Florist" };
const NORTHWIND = { id: 9, name: "Northwind Outdoor" };
const CLIENTS = {
  [ACME.id]: { name: "Ann Lee", email: "ann@acme.example" },
  [BLOOM.id]: { name: "Ravi Patel", email: "ravi@bloom.example" },
  [NORTHWIND.id]: { name: "Lena Ortiz", email: "lena@northwind.example" },
};

/** The staff directory: Sam answers the tickets, Dana heads Support, Pat manages the projects. */
export const STAFF = [
  { id: 9, name: "Sam Staff", email: "sam@agency.example", phone: "+15550000009", department_id: 2 },
  { id: 4, name: "Dana Head", email: "dana@agency.example", phone: "+15550000004", department_id: 2, is_department_manager: true },
  { id: 5, name: "Pat Manager", email: "pat@agency.example", phone: "+15550000005", department_id: 2, is_project_manager: true },
];
export const SAM = STAFF[0]!;
export const DEPARTMENT = { id: 2, name: "Support", manager_staff_id: 4 };

/** The first act: a checkout that breaks, turns CRITICAL and is fixed; a project with time on it; a VIP's form. */
export const CHECKOUT: StoryTicket = {
  id: 101,
  subject: "Checkout shows error 500 after the payment plugin update",
  organisation: ACME,
  client: CLIENTS[ACME.id]!,
  is_vip: false,
  customer_type: "retainer",
  entries: [
    {
      type: "M",
      text: "Since this morning's payment plugin update some customers get error 500 on the last checkout step.",
      reading: { percentage: 62, hours: 3, summary: "<p>Some checkouts fail with error 500 since the payment plugin update.</p>", title: "Checkout error 500 since the payment plugin update" },
    },
    { type: "R", text: "We are looking into it. Could you send us the number of an order that failed?" },
    { type: "N", text: "Plugin 4.2 changed the gateway callback URL and the old URL answers 500." },
    {
      type: "M",
      text: "Now no order goes through at all, every customer sees the error and we are losing every sale.",
      reading: { percentage: 90, hours: 2, summary: "<p>Checkout is down for every customer: no order goes through.</p>", title: "Checkout down for all customers after the payment plugin update" },
    },
    {
      type: "R",
      text: "We rolled the payment plugin back to 4.1 and orders go through again. The update returns once its callback URL is fixed.",
      reading: { percentage: 30, hours: 1, summary: "<p>Checkout works again after the plugin rollback; the update waits for a fix.</p>", title: "Re-apply the payment plugin update with the new callback URL" },
    },
  ],
};

export const REDESIGN: StoryTicket = {
  id: 102,
  subject: "Redesign of the product pages",
  organisation: BLOOM,
  client: CLIENTS[BLOOM.id]!,
  is_vip: false,
  customer_type: "project",
  project: { budget_hours: 20, quoted_hours: 16 },
  entries: [
    {
      type: "M",
      text: "As agreed, please start on the new product page layout from the mock-ups we approved.",
      reading: { percentage: 20, hours: 16, summary: "<p>Project work: the new product page layout from the approved mock-ups.</p>", title: "Product page redesign from the approved mock-ups" },
    },
    { type: "R", text: "The first wireframes are ready for your review." },
  ],
};

export const CONTACT_FORM: StoryTicket = {
  id: 103,
  subject: "Contact form stopped sending e-mails",
  organisation: NORTHWIND,
  client: CLIENTS[NORTHWIND.id]!,
  is_vip: true,
  customer_type: "retainer",
  entries: [
    {
      type: "M",
      text: "Messages sent through the contact form no longer reach us since Friday and customers phone us instead.",
      reading: { percentage: 40, hours: 2, summary: "<p>Contact form messages are lost since Friday.</p>", title: "Contact form messages not delivered since Friday" },
    },
  ],
};

/** After the first act, a new ticket every few seconds from these, and a reply to each. */
export const ROUTINE: Omit<StoryTicket, "id">[] = [
  ["Invoice PDF is missing the VAT number", ACME, "Our invoice PDFs no longer show the VAT number in the footer.", 15],
  ["Backups failed three nights in a row", NORTHWIND, "The nightly backup report says failed for the last three nights.", 58],
  ["Please add Spanish as a second shop language", BLOOM, "We would like the shop in Spanish too, from next season on.", 8],
  ["Product images load slowly on mobile", ACME, "On phones the product images take several seconds to appear.", 35],
].map(([subject, organisation, text, percentage]) => ({
  subject: subject as string,
  organisation: organisation as StoryTicket["organisation"],
  client: CLIENTS[(organisation as StoryTicket["organisation"]).id]!,
  is_vip: false,
  customer_type: "retainer",
  entries: [
    { type: "M" as const, text: text as string, reading: { percentage: percentage as number, hours: 2, summary: `<p>${text as string}</p>`, title: subject as string } },
    { type: "R" as const, text: "Thank you, we have planned this for this week." },
  ],
}));

/** Every entry that sets the urgency, for the model to look for in a thread. */
export const READINGS: { text: string; reading: Reading }[] = [CHECKOUT, REDESIGN, CONTACT_FORM, ...ROUTINE].flatMap((ticket) => ticket.entries.flatMap((entry) => (entry.reading ? [{ text: entry.text, reading: entry.reading }] : [])));

/** The ticket number osTicket would show for an id. */
export const numberOf = (id: number) => String(id).padStart(6, "0");
