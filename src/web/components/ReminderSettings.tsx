import { lazyComponent } from '../lazy.js';

/**
 * The goal's reminder settings. The panel (and the push code behind it) is its own chunk, loaded when a goal page
 * opens, so the JavaScript every start loads stays small (test/web/bundle-size.test.ts).
 */
export const ReminderSettings = lazyComponent(() =>
  import('./ReminderPanel.js').then((module) => module.ReminderPanel),
);
