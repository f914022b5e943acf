import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';

/**
 * The key that encrypts pending invite links. It lives outside the database (SECRET_KEY, or a file in the data
 * directory created on first start), so a stolen database alone yields no usable invite. Several processes on
 * PostgreSQL must share it through SECRET_KEY.
 */
export function loadSecretKey(config: Config, onCreated: (file: string) => void = () => undefined): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  const existing = readKeyFile(file);
  if (existing) return existing;
  const created = createKeyFile(file);
  onCreated(file);
  return created;
}

/** The key in `file`, or null when there is no such file. */
function readKeyFile(file: string): Buffer | null {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const hex = content.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new Error(`${file} does not hold 64 hexadecimal characters; remove it or set SECRET_KEY`);
  }
  return Buffer.from(hex, 'hex');
}

/**
 * Two processes may start at once on a fresh data directory (the server and `steady invite`). Each writes its key
 * to a temporary file of its own and then links it to the real name: the link either appears complete or fails
 * with EEXIST, so nobody ever reads a half-written file, and whoever lost uses the winner's key.
 */
function createKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = readKeyFile(file);
    if (!winner) throw new Error(`${file} appeared and vanished while this process was creating it`);
    return winner;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
