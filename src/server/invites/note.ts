import { LIMITS } from '../../common/limits.js';
import { codePointLength } from '../../common/text.js';
import { badRequest } from '../http/errors.js';

/** An invite's note as stored: trimmed, null when empty; longer than the limit is refused (400 `note_too_long`). */
export function checkedInviteNote(raw: string | undefined): string | null {
  const note = raw?.trim() ?? '';
  if (codePointLength(note) > LIMITS.inviteNoteMax) {
    throw badRequest('note_too_long', `note must have at most ${LIMITS.inviteNoteMax} characters`, 'note');
  }
  return note === '' ? null : note;
}
