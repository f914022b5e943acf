import { LIMITS } from '../../common/limits.js';
import { cleanName } from '../../common/names.js';
import { codePointLength } from '../../common/text.js';
import { badRequest } from '../http/errors.js';

/**
 * An invite's note as stored: cleaned as names are (decision 0205), null when empty; longer than the limit is refused
 * (400 `note_too_long`).
 */
export function checkedInviteNote(raw: string | undefined): string | null {
  const note = cleanName(raw ?? '');
  if (codePointLength(note) > LIMITS.inviteNoteMax) {
    throw badRequest('note_too_long', `note must have at most ${LIMITS.inviteNoteMax} characters`, 'note');
  }
  return note === '' ? null : note;
}
