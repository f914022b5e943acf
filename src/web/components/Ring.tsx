import { isMet } from '../../common/progress.js';
import { formatNumber } from '../i18n/index.js';

const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** Progress as a ring (today's, or a finished goal's whole); a check mark, not only the colour, says it is met. */
export function Ring({
  done,
  target,
  label,
  size = 'normal',
}: {
  done: number;
  target: number;
  /** The ring's accessible name, e.g. "35 of 50 push-ups today". */
  label: string;
  size?: 'small' | 'normal' | 'large';
}) {
  const fraction = target > 0 ? Math.min(done / target, 1) : done > 0 ? 1 : 0;
  const met = isMet(done, target);
  return (
    <svg class={`ring ring-${size}`} viewBox="0 0 120 120" role="img" aria-label={label}>
      <circle class="ring-track" cx="60" cy="60" r={RADIUS} />
      {/* Nothing done draws nothing: a zero-length round stroke would show as a dot. */}
      {fraction > 0 && (
        <circle
          class="ring-value"
          cx="60"
          cy="60"
          r={RADIUS}
          stroke-dasharray={`${fraction * CIRCUMFERENCE} ${CIRCUMFERENCE}`}
          transform="rotate(-90 60 60)"
        />
      )}
      <text class="ring-done" x="60" y={met ? 58 : 62} text-anchor="middle">
        {formatNumber(done)}
      </text>
      <text class="ring-target" x="60" y={met ? 78 : 84} text-anchor="middle">
        / {formatNumber(target)}
      </text>
      {met && <path class="ring-check" d="M49 92 l7 7 l14 -14" />}
    </svg>
  );
}
