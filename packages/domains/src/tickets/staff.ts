import type { Connections } from "@mw/platform/connections";
import type { Staff, Ticket } from "@mw/platform/prisma";

type Deps = Pick<Connections, "prisma">;

/** A member of the staff directory; null when the directory does not know them. */
export function staffMember({ prisma }: Deps, staffId: number) {
  return prisma.staff.findUnique({ where: { id: staffId } });
}

/** The first staff member with this e-mail address; null when none has it. */
export function staffWithEmail({ prisma }: Deps, email: string) {
  return prisma.staff.findFirst({ where: { email } });
}

/**
 * Spec 2, 6: the assigned staff member, the project managers and the
 * department manager. Project managers are the staff flagged so in the
 * ticket's department (all of them for a ticket without one); the department
 * manager is the one the ticket names, else the department's flagged one.
 */
export async function alertRecipients({ prisma }: Deps, ticket: Pick<Ticket, "department_id" | "assigned_staff_id" | "department_manager_staff_id">): Promise<Staff[]> {
  const department = ticket.department_id === null ? {} : { department_id: ticket.department_id };
  const ids = [ticket.assigned_staff_id, ticket.department_manager_staff_id].filter((id): id is number => id !== null);
  return prisma.staff.findMany({
    where: {
      OR: [
        { id: { in: ids } },
        { is_project_manager: true, ...department },
        ...(ticket.department_manager_staff_id === null && ticket.department_id !== null ? [{ is_department_manager: true, department_id: ticket.department_id }] : []),
      ],
    },
    orderBy: { id: "asc" },
  });
}
