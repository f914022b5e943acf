/** Input limits shared by server validation and the web app's form attributes (docs/decisions/0007-input-limits.md). */
export const LIMITS = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 256,
  displayNameMax: 100,
  inviteNoteMax: 500,
  goalNameMax: 200,
  goalUnitMax: 50,
  goalDaysMax: 3650,
} as const;
