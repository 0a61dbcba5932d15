import { isUniqueViolation, type PrismaClient } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";

/** Design 10.4: alerts at these percentages of a budget, each once per project (and per task for task budgets). */
const MILESTONES = [50, 75, 90, 100] as const;

interface MilestoneAlertText {
  project_id: number;
  task_id: number;
  threshold: number;
  text: string;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Claims each threshold reached and not yet alerted; answers the ones claimed now (a unique row per project, task and threshold). */
async function claim(prisma: PrismaClient, projectId: number, taskId: number, hours: number, budget: number, describe: (threshold: number) => string): Promise<MilestoneAlertText[]> {
  const percent = (hours / budget) * 100;
  const claimed: MilestoneAlertText[] = [];
  for (const threshold of MILESTONES.filter((milestone) => percent >= milestone)) {
    try {
      await prisma.milestoneAlert.create({ data: { project_id: projectId, task_id: taskId, threshold, percent: percent.toFixed(2) } });
      claimed.push({ project_id: projectId, task_id: taskId, threshold, text: describe(threshold) });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return claimed;
}

/** Spec 2, 4.2 `/update_milestones`: projects with a budget, from the mirror /time_sync fills. */
export async function projectMilestones({ prisma }: Pick<Connections, "prisma">): Promise<MilestoneAlertText[]> {
  const projects = await prisma.harvestProjectMirror.findMany({ where: { is_active: true, budget: { gt: 0 } } });
  const alerts: MilestoneAlertText[] = [];
  for (const project of projects) {
    const hours = Number((await prisma.harvestTimeEntryMirror.aggregate({ where: { project_id: project.id }, _sum: { hours: true } }))._sum.hours ?? 0);
    const budget = Number(project.budget);
    alerts.push(...(await claim(prisma, project.id, 0, hours, budget, (threshold) => `Project "${project.name}" reached ${threshold} % of its budget: ${round1(hours)} of ${round1(budget)} h used.`)));
  }
  return alerts;
}

/** Spec 2, 4.2 `/update_milestones_tasks`: task assignments with their own budget. */
export async function taskMilestones({ prisma }: Pick<Connections, "prisma">): Promise<MilestoneAlertText[]> {
  const assignments = await prisma.harvestTaskAssignmentMirror.findMany({ where: { is_active: true, budget: { gt: 0 } } });
  const names = new Map((await prisma.harvestTaskMirror.findMany()).map((task) => [task.id, task.name]));
  const projects = new Map((await prisma.harvestProjectMirror.findMany({ where: { id: { in: assignments.map((assignment) => assignment.project_id) } } })).map((project) => [project.id, project.name]));
  const alerts: MilestoneAlertText[] = [];
  for (const assignment of assignments) {
    const hours = Number((await prisma.harvestTimeEntryMirror.aggregate({ where: { project_id: assignment.project_id, task_id: assignment.task_id }, _sum: { hours: true } }))._sum.hours ?? 0);
    const budget = Number(assignment.budget);
    const task = names.get(assignment.task_id) ?? `task ${assignment.task_id}`;
    const project = projects.get(assignment.project_id) ?? `project ${assignment.project_id}`;
    alerts.push(...(await claim(prisma, assignment.project_id, assignment.task_id, hours, budget, (threshold) => `Task "${task}" on project "${project}" reached ${threshold} % of its budget: ${round1(hours)} of ${round1(budget)} h used.`)));
  }
  return alerts;
}
