import { createLogger } from '../../src/server/log.js';

/** A JSON-lines logger at its most talkative level, writing into memory. */
export function memoryLogger() {
  const written: string[] = [];
  const log = createLogger({ level: 'trace', readable: false, write: (text) => void written.push(text) });
  return {
    log,
    text: () => written.join(''),
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
