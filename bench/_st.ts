import { printStartTimes } from './start-time.js';
await printStartTimes();
