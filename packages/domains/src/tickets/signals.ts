import { z } from "zod";
import { isUniqueViolation, type Prisma } from "@mw/platform/database";
import { truncateCodePoints } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";
import { type RecipientChanges, recipientChanges, recordRecipientChange, type SignalSource } from "./recipient-changes.ts";

/** The client or a transaction: a signal is stored with its urgency queue row in one commit. */
type Db = Prisma.TransactionClient;

// PHP encodes database values as strings ("123", "0"): the ticket system's side may send either form.
const id = z.coerce.number<string | number>().int().positive();
const flag = z.union([z.boolean(), z.literal([0, 1, "0", "1"]).transform((value) => value === 1 || value === "1")]);
const time = z.iso.datetime({ offset: true });
const hours = z.coerce.number<string | number>().min(0).max(999_999).nullish();
const number = z.union([z.string(), z.number().int().nonnegative()]).transform(String).pipe(z.string().trim().min(1).max(32));

/** A ticket as the ticket system sends it (design 10.1); unknown members are ignored. */
const ticketSignalBody = z.object({
  id,
  number,
  subject: z.string().max(10_000),
  status: z.string().trim().min(1).max(32),
  organisation: z.object({ id, name: z.string().trim().min(1).max(255) }).nullish(),
  user: z.object({ name: z.string().max(255), email: z.string().max(255).nullish() }).nullish(),
  is_vip: flag.default(false),
  customer_type: z.string().max(64).nullish(),
  department: z.object({ id, name: z.string().max(255), manager_staff_id: id.nullish() }).nullish(),
  assigned_staff_id: id.nullish(),
  created: time,
  /** Design 10.8: an older ticket signal than the one stored changes nothing. */
  updated: time.optional(),
  fields: z.object({ time_project_id: id.nullish(), budget_hours: hours, quoted_hours: hours }).partial().optional(),
});

/** A thread entry: M message (client), R response (staff), N internal note. */
const entrySignalBody = z.object({
  id,
  type: z.enum(["M", "R", "N"]),
  poster_name: z.string().max(255),
  poster_type: z.preprocess((value) => (value === "user" ? "User" : value === "staff" ? "Staff" : value), z.enum(["User", "Staff"])),
  staff_id: id.nullish(),
  is_internal: flag.default(false),
  body: z.string().max(4_000_000),
  format: z.enum(["html", "text"]).default("text"),
  created: time,
});

export const staffSignalBody = z.object({
  id,
  name: z.string().trim().min(1).max(255),
  email: z.string().trim().max(255).nullish(),
  phone: z.string().trim().max(32).nullish(),
  department_id: id.nullish(),
  is_project_manager: flag.default(false),
  is_department_manager: flag.default(false),
});

/** Every signal the ticket system sends (design 10.1 and 10.8). */
export const ticketSignal = z.discriminatedUnion("signal", [
  z.object({ signal: z.literal("threadentry.created"), ticket: ticketSignalBody, entry: entrySignalBody }),
  z.object({ signal: z.literal("ticket.created"), ticket: ticketSignalBody }),
  z.object({ signal: z.literal("ticket.updated"), ticket: ticketSignalBody }),
  z.object({ signal: z.literal("ticket.assigned"), ticket: ticketSignalBody }),
  z.object({ signal: z.literal("staff.updated"), staff: staffSignalBody }),
]);
export type TicketSignal = z.output<typeof ticketSignal>;
type TicketBody = z.output<typeof ticketSignalBody>;

/** What applying a signal did: whether anything stored changed, and the new entry that asks for an analysis. */
export interface SignalOutcome {
  changed: boolean;
  /** The ticket whose new thread entry asks for an analysis (spec 2, 6). */
  analyse?: { ticket_id: number; entry_type: "M" | "R" | "N"; staff_id: number | null };
  /** A staff.updated signal that moved where alerts go: each changed field (recorded, see recordRecipientChange). */
  recipients?: RecipientChanges;
}

/**
 * Inserts, or on a lost race updates: two signals for a new ticket may arrive
 * at once. The update must be an `updateMany` (a plain UPDATE): inside a
 * transaction, a read would not see the row the other signal just committed.
 */
async function createOrUpdate(create: () => Promise<unknown>, update: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await update();
  }
}

const decimal = (value: number | null | undefined) => (value === undefined ? undefined : value === null ? null : value.toFixed(2));

function ticketColumns(ticket: TicketBody) {
  return {
    number: ticket.number,
    subject: truncateCodePoints(ticket.subject.replace(/\s+/g, " ").trim(), 255),
    status: ticket.status,
    organisation_id: ticket.organisation?.id ?? null,
    client_name: ticket.user?.name ?? null,
    client_email: ticket.user?.email ?? null,
    is_vip: ticket.is_vip,
    customer_type: ticket.customer_type ?? null,
    department_id: ticket.department?.id ?? null,
    department_name: ticket.department?.name ?? null,
    department_manager_staff_id: ticket.department?.manager_staff_id ?? null,
    assigned_staff_id: ticket.assigned_staff_id ?? null,
    opened_at: new Date(ticket.created),
    ...(ticket.fields?.time_project_id !== undefined && { time_project_id: ticket.fields.time_project_id }),
    ...(ticket.fields?.budget_hours !== undefined && { budget_hours: decimal(ticket.fields.budget_hours) }),
    ...(ticket.fields?.quoted_hours !== undefined && { quoted_hours: decimal(ticket.fields.quoted_hours) }),
    ...(ticket.updated && { source_updated_at: new Date(ticket.updated) }),
  };
}

function sameValue(stored: unknown, incoming: unknown): boolean {
  if (stored instanceof Date && incoming instanceof Date) return stored.getTime() === incoming.getTime();
  if (stored !== null && typeof stored === "object" && "toFixed" in stored) return incoming !== null && Number(stored) === Number(incoming);
  return stored === incoming;
}

/** Stores the ticket unless a newer version is already stored; answers whether anything changed. */
async function storeTicket(prisma: Db, ticket: TicketBody): Promise<boolean> {
  let changed = false;
  if (ticket.organisation) {
    const { id: organisationId, name } = ticket.organisation;
    const stored = await prisma.organisation.findUnique({ where: { id: organisationId } });
    if (stored?.name !== name) {
      changed = true;
      // One statement that takes the row's lock at once: many signals may bring a new organisation together.
      await prisma.$executeRaw`INSERT INTO organisations (id, name, updated_at) VALUES (${organisationId}, ${name}, ${new Date()}) ON DUPLICATE KEY UPDATE name = VALUES(name), updated_at = VALUES(updated_at)`;
    }
  }
  const columns = ticketColumns(ticket);
  const stored = await prisma.ticket.findUnique({ where: { id: ticket.id } });
  if (!stored) {
    await createOrUpdate(
      () => prisma.ticket.create({ data: { id: ticket.id, ...columns } }),
      () => prisma.ticket.updateMany({ where: { id: ticket.id }, data: columns }),
    );
    return true;
  }
  if (stored.source_updated_at && ticket.updated && new Date(ticket.updated) < stored.source_updated_at) return changed;
  const differs = Object.entries(columns).some(([name, value]) => !sameValue(stored[name as keyof typeof stored], value));
  if (!differs) return changed;
  await prisma.ticket.update({ where: { id: ticket.id }, data: columns });
  return true;
}

/**
 * Applies one signal to the mirror, idempotently by the ticket system's ids:
 * a redelivered signal changes nothing, and a thread entry is stored once.
 */
export async function applySignal(prisma: Db, signal: TicketSignal, source: SignalSource = "signal"): Promise<SignalOutcome> {
  if (signal.signal === "staff.updated") {
    const { id: staffId, ...staff } = signal.staff;
    const columns = { ...staff, email: staff.email ?? null, phone: staff.phone ?? null, department_id: staff.department_id ?? null };
    const stored = await prisma.staff.findUnique({ where: { id: staffId } });
    if (stored && Object.entries(columns).every(([name, value]) => sameValue(stored[name as keyof typeof stored], value))) return { changed: false };
    await createOrUpdate(
      () => prisma.staff.create({ data: { id: staffId, ...columns } }),
      () => prisma.staff.updateMany({ where: { id: staffId }, data: columns }),
    );
    const recipients = recipientChanges(stored, columns);
    if (Object.keys(recipients).length === 0) return { changed: true };
    await recordRecipientChange(prisma, { id: staffId, name: columns.name }, recipients, source, signal);
    return { changed: true, recipients };
  }
  const ticketChanged = await storeTicket(prisma, signal.ticket);
  if (signal.signal !== "threadentry.created") return { changed: ticketChanged };
  const { entry } = signal;
  const inserted = await prisma.ticketEntry.createMany({
    data: [
      {
        id: entry.id,
        ticket_id: signal.ticket.id,
        type: entry.type,
        poster_name: entry.poster_name,
        poster_type: entry.poster_type,
        staff_id: entry.staff_id ?? null,
        is_internal: entry.is_internal,
        body: entry.body,
        format: entry.format,
        posted_at: new Date(entry.created),
      },
    ],
    skipDuplicates: true,
  });
  if (!inserted.count) return { changed: ticketChanged };
  return { changed: true, analyse: { ticket_id: signal.ticket.id, entry_type: entry.type, staff_id: entry.staff_id ?? null } };
}

/** A staff directory record (`pnpm cli staff:import`), applied as a `staff.updated` signal; answers whether anything stored changed. */
export async function applyStaffRecord({ prisma }: Pick<Connections, "prisma">, staff: z.output<typeof staffSignalBody>): Promise<boolean> {
  return (await applySignal(prisma, { signal: "staff.updated", staff }, "staff:import")).changed;
}
