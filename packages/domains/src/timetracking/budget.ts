import type { OptionStore } from "../options/index.ts";

/** Design 10.4: the over-budget multiplier by the budget's size (options, editable). */
export async function budgetMultiplier(options: OptionStore, budget: number): Promise<number> {
  if (budget <= 10) return options.get("time_api.budget_multiplier_small");
  if (budget <= 40) return options.get("time_api.budget_multiplier_medium");
  return options.get("time_api.budget_multiplier_large");
}

interface LockState {
  locked: boolean;
  unlocked_budget: number | null;
  unlocked_hours: number | null;
}

/**
 * Spec 2, 3 and design 10.8: hours used above budget x multiplier lock the
 * ticket. An unlock by the project manager sticks until the budget changes
 * or hours used grow by another 10 % of the budget past the hours at unlock.
 */
export function shouldLock(state: LockState, hoursUsed: number, budget: number | null, multiplier: number): boolean {
  if (state.locked || budget === null || budget <= 0) return false;
  if (hoursUsed <= budget * multiplier) return false;
  const unlockHolds = state.unlocked_budget !== null && state.unlocked_hours !== null && state.unlocked_budget === budget && hoursUsed < state.unlocked_hours + 0.1 * budget;
  return !unlockHolds;
}
