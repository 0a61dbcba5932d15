import { z } from "zod";

const ref = z.object({ id: z.number(), name: z.string() });

export const tokenAnswer = z.object({ access_token: z.string().min(1), refresh_token: z.string().min(1), token_type: z.string().optional(), expires_in: z.number().positive() });
export type HarvestTokens = z.infer<typeof tokenAnswer>;

export const accountsAnswer = z.object({
  user: z.object({ id: z.number(), first_name: z.string().nullish(), last_name: z.string().nullish(), email: z.string().nullish() }),
  accounts: z.array(z.object({ id: z.number(), name: z.string(), product: z.string() })),
});

export const userRecord = z.object({ id: z.number(), first_name: z.string().nullish(), last_name: z.string().nullish(), email: z.string().nullish(), is_active: z.boolean().optional() });

export const clientRecord = z.object({ id: z.number(), name: z.string(), is_active: z.boolean().optional() });
export type HarvestClientRecord = z.infer<typeof clientRecord>;

export const projectRecord = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string().nullish(),
  client: ref.nullish(),
  is_active: z.boolean(),
  budget: z.number().nullish(),
  budget_by: z.string().nullish(),
  updated_at: z.string().optional(),
});
export type HarvestProject = z.infer<typeof projectRecord>;

export const taskRecord = z.object({ id: z.number(), name: z.string(), is_active: z.boolean().optional(), is_default: z.boolean().optional() });

export const taskAssignmentRecord = z.object({ id: z.number(), is_active: z.boolean(), billable: z.boolean().nullish(), budget: z.number().nullish(), task: ref, project: ref.optional() });
export type HarvestTaskAssignment = z.infer<typeof taskAssignmentRecord>;

export const timeEntryRecord = z.object({
  id: z.number(),
  spent_date: z.string(),
  hours: z.number(),
  notes: z.string().nullish(),
  is_running: z.boolean(),
  user: ref,
  project: ref,
  task: ref,
  client: ref.nullish(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type HarvestTimeEntry = z.infer<typeof timeEntryRecord>;

export const userAssignmentRecord = z.object({ id: z.number(), is_project_manager: z.boolean(), is_active: z.boolean(), user: ref });
