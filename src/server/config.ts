import { isIP } from 'node:net';
import path from 'node:path';
import { isAccountEmail, isValidEmail, normalizeEmail } from '../common/email.js';

/** Everything the server reads from the environment, checked once at start. */
export interface Config {
  port: number;
  host: string;
  /** Public origin without a trailing slash, e.g. `https://steady.example.org`. */
  baseUrl: string;
  /** True when `baseUrl` is https: cookies become `Secure` with `__Host-` names, HSTS is sent. */
  secureCookies: boolean;
  database: DatabaseConfig;
  /** Folder for the SQLite file (by default), the mail outbox and the secret key file. */
  dataDir: string;
  /** Normalized (trimmed, lower-case) administrator e-mail, or null when none is configured. */
  adminEmail: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** 32-byte key that encrypts pending invite links; null = use (or create) `<dataDir>/secret.key`. */
  secretKey: Buffer | null;
  /**
   * Addresses, CIDR networks or proxy-addr names (`loopback`, `linklocal`, `uniquelocal`) of the reverse proxies
   * whose `X-Forwarded-For` is believed; empty = trust nothing and use the socket address.
   */
  trustProxy: string[];
  logLevel: string;
  /** Folder for the daily 03:00 backup (newest 14 kept); null = no scheduled backups. */
  backupDir: string | null;
  /** Bearer token that opens GET /metrics; null = no /metrics route at all. */
  metricsToken: string | null;
  /** Memory for ready-to-send goal lists (src/server/goals/list-cache.ts); 0 = no cache. */
  goalListCacheBytes: number;
  /** VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY; null = a pair generated once and kept in the database (decision 0102). */
  vapid: { publicKey: string; privateKey: string } | null;
  /** Who push services may contact about our pushes: VAPID_SUBJECT, else BASE_URL (https) or MAIL_FROM's address. */
  vapidSubject: string;
  /**
   * PUSH_TEST_ORIGIN: the one origin (e.g. `http://127.0.0.1:4567`) of a local push service that is exempt from the
   * https and public-address rules for push endpoints; for tests only (decision 0103). null in production.
   */
  pushTestOrigin: string | null;
}

/** Administrator rights are not stored: an account is the administrator when its e-mail is ADMIN_EMAIL. */
export function isAdmin(config: Pick<Config, 'adminEmail'>, email: string): boolean {
  return config.adminEmail !== null && normalizeEmail(email) === config.adminEmail;
}

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };

/** A bad environment variable: the message names it, and `main` prints it as one line and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  const host = nonEmpty(env.HOST) ?? 'localhost';
  const baseUrl = parseBaseUrl(env.BASE_URL, port);
  const database = parseDatabaseUrl(
    nonEmpty(env.DATABASE_URL) ?? 'sqlite:./data/steady.db',
    parseWholeNumber('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, DEFAULT_POOL_SIZE, 1, 100),
  );
  const dataDir = path.resolve(
    nonEmpty(env.DATA_DIR) ?? (database.kind === 'sqlite' ? path.dirname(database.file) : './data'),
  );
  return {
    port,
    host,
    baseUrl,
    secureCookies: baseUrl.startsWith('https:'),
    database,
    dataDir,
    adminEmail: parseAdminEmail(env.ADMIN_EMAIL),
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    mailFrom: parseMailFrom(env.MAIL_FROM, baseUrl),
    secretKey: parseSecretKey(env.SECRET_KEY),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    backupDir: nonEmpty(env.BACKUP_DIR) === undefined ? null : path.resolve(nonEmpty(env.BACKUP_DIR)!),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    goalListCacheBytes:
      parseWholeNumber('GOAL_LIST_CACHE_MB', env.GOAL_LIST_CACHE_MB, DEFAULT_GOAL_LIST_CACHE_MB, 0, 4096) * MB,
    vapid: parseVapidKeys(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY),
    vapidSubject: parseVapidSubject(env.VAPID_SUBJECT, baseUrl, parseMailFrom(env.MAIL_FROM, baseUrl)),
    pushTestOrigin: parsePushTestOrigin(env.PUSH_TEST_ORIGIN),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function parsePort(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return 3000;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

function parseBaseUrl(raw: string | undefined, port: number): string {
  const value = nonEmpty(raw);
  if (value === undefined) {
    // Links name the port; with 0 the system picks one only at listen, after every link has its base.
    if (port === 0) throw new ConfigError('BASE_URL', 'must be set when PORT is 0 (any free port)');
    return `http://localhost:${port}`;
  }
  const url = urlOrError('BASE_URL', value, `must be an absolute http(s) URL, got "${value}"`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('BASE_URL', `must start with http:// or https://, got "${value}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError('BASE_URL', 'must not contain credentials, a query or a fragment');
  }
  return url.href.replace(/\/+$/, '');
}

/** PostgreSQL connections per process, chosen by measurement (docs/decisions/0111-postgres-round-trips.md). */
export const DEFAULT_POOL_SIZE = 6;

export function parseDatabaseUrl(value: string, poolSize = DEFAULT_POOL_SIZE): DatabaseConfig {
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/steady.db');
    return { kind: 'sqlite', file: path.resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    // libpq takes a user without a host (postgres://steady@/steady?host=/run/postgresql); a URL parser does not, and
    // Steady reads the URL with one (the address it names, pg_dump's arguments).
    if (/^postgres(ql)?:\/\/[^/?#]*@(?:[/?#]|$)/.test(value))
      throw new ConfigError(
        'DATABASE_URL',
        'names a user but no host; name one, e.g. postgres://steady@localhost/steady?host=/var/run/postgresql (the host parameter, a socket folder, wins)',
      );
    urlOrError('DATABASE_URL', value, 'is not a valid postgres:// URL');
    return { kind: 'postgres', url: value, poolSize };
  }
  throw new ConfigError(
    'DATABASE_URL',
    `must start with sqlite: or postgres://, got "${value.replace(/\/\/[^@/]*@/, '//***@')}"`,
  );
}

/**
 * The goal list cache's default budget: with the server's own ~100 MB it keeps the process near 120 MB, and it
 * holds the lists of ~700 users of 21.6 kB each (docs/decisions/0112-memory.md).
 */
export const DEFAULT_GOAL_LIST_CACHE_MB = 16;
const MB = 1024 * 1024;

/** A whole number from `min` to `max`; `fallback` when unset. */
function parseWholeNumber(
  variable: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = nonEmpty(raw);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(variable, `must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

function parseAdminEmail(raw: string | undefined): string | null {
  const value = nonEmpty(raw);
  if (value === undefined) return null;
  if (!isAccountEmail(value)) throw new ConfigError('ADMIN_EMAIL', `is not a valid e-mail address: "${value}"`);
  return normalizeEmail(value);
}

/** `value` parsed as a URL, or a ConfigError naming the variable with `problem`. */
function urlOrError(variable: string, value: string, problem: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigError(variable, problem);
  }
}

function parseSmtpUrl(raw: string | undefined): string | null {
  const value = nonEmpty(raw);
  if (value === undefined) return null;
  const url = urlOrError('SMTP_URL', value, 'must be a URL like smtp://user:pass@host:587');
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://');
  }
  return value;
}

function parseMailFrom(raw: string | undefined, baseUrl: string): string {
  const value = nonEmpty(raw);
  if (value === undefined) return `Steady <steady@${new URL(baseUrl).hostname}>`;
  const address = /<([^>]+)>\s*$/.exec(value)?.[1] ?? value;
  if (!isValidEmail(address)) throw new ConfigError('MAIL_FROM', `is not a valid sender address: "${value}"`);
  return value;
}

function parseSecretKey(raw: string | undefined): Buffer | null {
  const value = nonEmpty(raw);
  if (value === undefined) return null;
  if (!/^[0-9a-fA-F]{64}$/.test(value)) {
    throw new ConfigError(
      'SECRET_KEY',
      'must be 64 hexadecimal characters (32 bytes), e.g. from `openssl rand -hex 32`',
    );
  }
  return Buffer.from(value, 'hex');
}

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * A list, never a yes/no: trusting every hop would let any client pick its own address by writing the leftmost
 * `X-Forwarded-For` entry, and the per-address throttles would count nothing (decision 0013).
 */
function parseTrustProxy(raw: string | undefined): string[] {
  const value = nonEmpty(raw);
  if (value === undefined || ['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return [];
  if (['1', 'true', 'yes', 'on', '*'].includes(value.toLowerCase())) {
    throw new ConfigError(
      'TRUST_PROXY',
      `"${value}" would trust every client's X-Forwarded-For; give your proxy's address instead, e.g. 127.0.0.1 or loopback`,
    );
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyEntry(entry)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `"${entry}" is not an IP address, a CIDR network (10.0.0.0/8) or one of ${PROXY_RANGE_NAMES.join(', ')}`,
      );
    }
  }
  return entries;
}

/** What Fastify's proxy-addr accepts, minus its netmask form and zone indexes: kept small on purpose. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = address.includes('%') ? 0 : isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // proxy-addr refuses /0 too; trusting the whole internet would be `true` in disguise.
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseLogLevel(raw: string | undefined): string {
  const value = nonEmpty(raw)?.toLowerCase() ?? 'info';
  if (!LOG_LEVELS.includes(value)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return value;
}

function parseMetricsToken(raw: string | undefined): string | null {
  const value = nonEmpty(raw);
  if (value === undefined) return null;
  // It guards figures about the users' activity: a guessable token would publish them.
  if (value.length < 16 || /\s/.test(value)) {
    throw new ConfigError(
      'METRICS_TOKEN',
      'must be at least 16 characters without spaces, e.g. from `openssl rand -hex 16`',
    );
  }
  return value;
}

/** Both keys or neither, each the URL-safe base64 that `npx web-push generate-vapid-keys` prints. */
function parseVapidKeys(
  rawPublic: string | undefined,
  rawPrivate: string | undefined,
): { publicKey: string; privateKey: string } | null {
  const publicKey = nonEmpty(rawPublic);
  const privateKey = nonEmpty(rawPrivate);
  if (publicKey === undefined && privateKey === undefined) return null;
  if (publicKey === undefined || privateKey === undefined) {
    throw new ConfigError(
      publicKey === undefined ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY',
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all',
    );
  }
  // A P-256 public key is 65 bytes (87 characters), the private key 32 bytes (43 characters).
  if (!/^[A-Za-z0-9_-]{87}$/.test(publicKey)) {
    throw new ConfigError('VAPID_PUBLIC_KEY', 'must be the 87-character URL-safe base64 public key');
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(privateKey)) {
    throw new ConfigError('VAPID_PRIVATE_KEY', 'must be the 43-character URL-safe base64 private key');
  }
  return { publicKey, privateKey };
}

function parseVapidSubject(raw: string | undefined, baseUrl: string, mailFrom: string): string {
  const value = nonEmpty(raw);
  if (value === undefined) {
    if (baseUrl.startsWith('https:')) return baseUrl;
    return `mailto:${/<([^>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom}`;
  }
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(value)) {
    throw new ConfigError('VAPID_SUBJECT', `must be a mailto: address or an https:// URL, got "${value}"`);
  }
  return value;
}

function parsePushTestOrigin(raw: string | undefined): string | null {
  const value = nonEmpty(raw);
  if (value === undefined) return null;
  const url = urlOrError('PUSH_TEST_ORIGIN', value, `must be an origin like http://127.0.0.1:4567, got "${value}"`);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/+$/, '')) {
    throw new ConfigError('PUSH_TEST_ORIGIN', `must be an origin (scheme://host:port) only, got "${value}"`);
  }
  return url.origin;
}
