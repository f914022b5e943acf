import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';

/**
 * The key that encrypts pending invite links. It lives outside the database (SECRET_KEY, or a file in the data
 * directory created on first start), so a stolen database alone yields no usable invite. Several processes on
 * PostgreSQL must share it through SECRET_KEY.
 */
export function loadSecretKey(config: Config): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  try {
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
    throw new Error(`${file} does not hold 64 hexadecimal characters; remove it or set SECRET_KEY`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another process created the file first; then its key is the one to use.
  try {
    fs.writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSecretKey(config);
    throw error;
  }
}
