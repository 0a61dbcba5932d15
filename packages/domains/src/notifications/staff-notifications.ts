import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma">;

interface StaffNotificationView {
  id: number;
  kind: string;
  ticket_id: number | null;
  title: string;
  body: string;
  read: boolean;
  created: string;
}

function view(row: { id: number; kind: string; ticket_id: number | null; title: string; body: string; read_at: Date | null; created: Date }): StaffNotificationView {
  return { id: row.id, kind: row.kind, ticket_id: row.ticket_id, title: row.title, body: row.body, read: row.read_at !== null, created: row.created.toISOString() };
}

/** A staff member's newest notifications, newest first. */
export async function latestNotifications({ prisma }: Deps, staffId: number, limit: number): Promise<StaffNotificationView[]> {
  const rows = await prisma.staffNotification.findMany({ where: { staff_id: staffId }, orderBy: { id: "desc" }, take: limit });
  return rows.map(view);
}

/** A staff member's notifications after `afterId`, oldest first (the stream's order; ids are its event ids). */
export async function notificationsAfter({ prisma }: Deps, staffId: number, afterId: number, limit = 100): Promise<StaffNotificationView[]> {
  const rows = await prisma.staffNotification.findMany({ where: { staff_id: staffId, id: { gt: afterId } }, orderBy: { id: "asc" }, take: limit });
  return rows.map(view);
}

export async function unreadCount({ prisma }: Deps, staffId: number): Promise<number> {
  return prisma.staffNotification.count({ where: { staff_id: staffId, read_at: null } });
}

/** Marks the given notifications (or all) of this staff member read; answers how many changed. */
export async function markNotificationsRead({ prisma }: Deps, staffId: number, ids: number[] | "all"): Promise<number> {
  const result = await prisma.staffNotification.updateMany({ where: { staff_id: staffId, read_at: null, ...(ids !== "all" && { id: { in: ids } }) }, data: { read_at: new Date() } });
  return result.count;
}

/** A notification for a staff member; one per staff member, ticket and kind. */
interface NewStaffNotification {
  staff_id: number;
  ticket_id: number | null;
  kind: string;
  title: string;
  body: string;
}

/** Stores the notifications the stream then shows; one already stored (same staff member, ticket and kind) is left as it is. Answers how many are new. */
export async function notifyStaff({ prisma }: Deps, notifications: NewStaffNotification[]): Promise<number> {
  const created = await prisma.staffNotification.createMany({ data: notifications, skipDuplicates: true });
  return created.count;
}
