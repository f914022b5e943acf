import { t } from './i18n/index.js';

/** The goal form's inputs, by the names the API gives a goal's values; each is labelled `goalForm.<field>`. */
export const GOAL_FIELDS = ['name', 'unit', 'daily', 'days', 'start'] as const;
export type GoalField = (typeof GOAL_FIELDS)[number];

/** A goal value by its label in the goal form: how a person knows it ("Daily target", not `daily`). */
export function goalFieldLabel(field: GoalField): string {
  return t(`goalForm.${field}`);
}

export function isGoalField(field: string): field is GoalField {
  return (GOAL_FIELDS as readonly string[]).includes(field);
}
