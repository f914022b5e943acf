import { pino, type Logger } from 'pino';
import { requestSerializers } from './http/request-log.js';

export interface LogOptions {
  level: string;
  /** Readable lines for a person at a terminal instead of JSON lines for a log collector. */
  readable: boolean;
  write?: (text: string) => void;
}

/**
 * The server's logger: JSON lines (one object per line, with `reqId` on request lines) when the output goes to
 * a file, journald or a collector; short readable lines when a person watches the terminal (decision 0053).
 */
export function createLogger({ level, readable, write = (text) => process.stdout.write(text) }: LogOptions): Logger {
  const options = { level, serializers: requestSerializers };
  if (!readable) return pino(options, { write });
  return pino(options, { write: (line: string) => write(readableLine(line)) });
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Noise for a person: the same in every line, or shown otherwise. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'inviteUrl']);

/** One JSON log line as `12:04:05 INFO  message key=value ...`; the first-start invite as a block of its own. */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const line = `${time} ${level} ${String(entry.msg ?? '')}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}\n`;
  if (typeof entry.inviteUrl !== 'string') return line;
  // The one link a newcomer needs must not scroll by among request lines.
  const rule = '='.repeat(72);
  return `\n${rule}\n  No users yet: open this single-use link to create the first account\n\n    ${entry.inviteUrl}\n\n  (valid until ${String(entry.validUntil)}; more invites: npx steady invite)\n${rule}\n\n`;
}
