import { useEffect, useState } from 'preact/hooks';

let show: ((text: string) => void) | null = null;
let serial = 0;

/** A short polite message in the app's status area (after logging, saving, deleting ...). */
export function announce(text: string): void {
  show?.(text);
}

/**
 * The status area. It owns its message, so an announcement re-renders only this and not the whole app; it is
 * always in the page, so screen readers announce every new message.
 */
export function Toast() {
  const [status, setStatus] = useState<{ text: string; serial: number } | null>(null);
  useEffect(() => {
    show = (text) => setStatus({ text, serial: ++serial });
    return () => {
      show = null;
    };
  }, []);
  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(null), 4000);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <div class="toast" role="status" aria-live="polite">
      {status && <p key={status.serial}>{status.text}</p>}
    </div>
  );
}
