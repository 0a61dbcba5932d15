import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "@mw/platform/database";
import { harvestClient, syncAuth, type TimeDeps } from "./settings.ts";

export interface SyncCounts {
  clients: number;
  projects: number;
  tasks: number;
  task_assignments: number;
  time_entries: number;
}

/** One upsert per row, in order: the mirror follows Harvest on every sync. */
async function upsertAll<T>(rows: T[], write: (row: T) => Promise<unknown>): Promise<number> {
  for (const row of rows) await write(row);
  return rows.length;
}

const decimal = (value: number | null | undefined) => (value === null || value === undefined ? null : value.toFixed(2));

/**
 * Spec 2, 4.2 `/time_sync`: clients, projects, tasks, the active projects'
 * task assignments and time entries from Harvest into the mirror tables
 * (upsert by Harvest id; design 10.8), with TIME_SYNC_DELAY_MS between
 * provider calls (spec 2, 8: 10 s). The milestone checks read the mirror.
 */
export async function syncTime(deps: TimeDeps & { delayMs: number }): Promise<SyncCounts> {
  const auth = await syncAuth(deps.options);
  const harvest = await harvestClient(deps);
  const { prisma } = deps;
  let first = true;
  // Spec 2, 8: a pause between provider calls (each list may still take several pages).
  const pause = async () => {
    if (!first && deps.delayMs > 0) await sleep(deps.delayMs);
    first = false;
  };
  await pause();
  const clients = await upsertAll(await harvest.clients(auth), (client) =>
    prisma.harvestClientMirror.upsert({ where: { id: client.id }, create: { id: client.id, name: client.name, is_active: client.is_active ?? true }, update: { name: client.name, is_active: client.is_active ?? true } }),
  );
  await pause();
  const projectList = await harvest.projects(auth);
  const projects = await upsertAll(projectList, (project) => {
    const columns = { client_id: project.client?.id ?? null, name: project.name, code: project.code ?? null, is_active: project.is_active, budget: decimal(project.budget), budget_by: project.budget_by ?? null };
    return prisma.harvestProjectMirror.upsert({ where: { id: project.id }, create: { id: project.id, ...columns }, update: columns });
  });
  await pause();
  const tasks = await upsertAll(await harvest.tasks(auth), (task) =>
    prisma.harvestTaskMirror.upsert({ where: { id: task.id }, create: { id: task.id, name: task.name, is_active: task.is_active ?? true }, update: { name: task.name, is_active: task.is_active ?? true } }),
  );
  let assignments = 0;
  let entries = 0;
  for (const project of projectList.filter((candidate) => candidate.is_active)) {
    await pause();
    assignments += await upsertAll(await harvest.taskAssignments(auth, project.id), (assignment) => {
      const columns = { project_id: project.id, task_id: assignment.task.id, is_active: assignment.is_active, budget: decimal(assignment.budget) };
      return prisma.harvestTaskAssignmentMirror.upsert({ where: { id: assignment.id }, create: { id: assignment.id, ...columns }, update: columns });
    });
    await pause();
    entries += await syncEntries(prisma, project.id, await harvest.timeEntries(auth, { project_id: project.id }));
  }
  return { clients, projects, tasks, task_assignments: assignments, time_entries: entries };
}

/** A project's entries in the mirror made equal to Harvest's (deleted ones removed). */
async function syncEntries(prisma: PrismaClient, projectId: number, entries: Awaited<ReturnType<Awaited<ReturnType<typeof harvestClient>>["timeEntries"]>>): Promise<number> {
  for (const entry of entries) {
    const columns = { project_id: projectId, task_id: entry.task.id, user_id: entry.user.id, spent_date: new Date(`${entry.spent_date}T00:00:00Z`), hours: entry.hours.toFixed(2), notes: entry.notes ?? null, is_running: entry.is_running };
    await prisma.harvestTimeEntryMirror.upsert({ where: { id: BigInt(entry.id) }, create: { id: BigInt(entry.id), ...columns }, update: columns });
  }
  await prisma.harvestTimeEntryMirror.deleteMany({ where: { project_id: projectId, id: { notIn: entries.map((entry) => BigInt(entry.id)) } } });
  return entries.length;
}
