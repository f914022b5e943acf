import { useApp } from '../context.js';
import { tp } from '../i18n/index.js';

/**
 * "2 changes not sent yet": the goal's logs and removals still in the outbox that will change what the server has
 * (a log and its own undo cancel out, decision 0189), on Today's row and the goal page.
 */
export function PendingNote({ goalId }: { goalId: string }) {
  const pending = useApp().pending[goalId] ?? 0;
  if (pending === 0) return null;
  return (
    <p class="today-pending">
      <span aria-hidden="true">⟳ </span>
      {tp('today.pending', pending)}
    </p>
  );
}
