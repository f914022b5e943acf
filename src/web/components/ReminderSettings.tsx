import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Goal } from '../api.js';

type Panel = ComponentType<{ goal: Goal }>;
let loaded: Panel | null = null;

/**
 * The goal's reminder settings. The panel (and the push code behind it) is its own chunk, loaded when a goal page
 * opens, so the JavaScript every start loads stays small (test/web/bundle-size.test.ts).
 */
export function ReminderSettings({ goal }: { goal: Goal }) {
  const [Panel, setPanel] = useState<Panel | null>(() => loaded);
  useEffect(() => {
    if (Panel) return;
    let live = true;
    void import('./ReminderPanel.js').then((module) => {
      loaded = module.ReminderPanel;
      if (live) setPanel(() => module.ReminderPanel);
    });
    return () => {
      live = false;
    };
  }, [Panel]);
  return Panel ? <Panel goal={goal} /> : null;
}
