import { isMet } from '../../common/progress.js';
import { formatNumber } from '../i18n/index.js';

const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;
/** The width inside the stroke (viewBox units) a number may take, with a little air on each side. */
const NUMBER_ROOM = 84;
/** Digits, separators and the slash of the UI font are about 0.6 em wide at most. */
const CHARACTER_EM = 0.6;

/**
 * The font size at which `text` fits inside the ring, at most `largest` (the stylesheet's size): "6.002,5" or
 * "1 000 000" would otherwise run over the stroke.
 */
function fittingFontSize(text: string, largest: number): number {
  return Math.min(largest, NUMBER_ROOM / (text.length * CHARACTER_EM));
}

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
      <RingText class="ring-done" y={met ? 58 : 62} text={formatNumber(done)} largest={30} />
      <RingText class="ring-target" y={met ? 78 : 84} text={`/ ${formatNumber(target)}`} largest={15} />
      {met && <path class="ring-check" d="M49 92 l7 7 l14 -14" />}
    </svg>
  );
}

/** One line of the ring's text, centred, at the largest size (px, as in the stylesheet) at which it fits. */
function RingText({ class: className, y, text, largest }: { class: string; y: number; text: string; largest: number }) {
  return (
    <text
      class={className}
      x="60"
      y={y}
      text-anchor="middle"
      style={{ fontSize: `${fittingFontSize(text, largest)}px` }}
    >
      {text}
    </text>
  );
}
