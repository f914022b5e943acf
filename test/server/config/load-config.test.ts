import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../../../src/server/config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for a first run on one machine', () => {
    const config = loadConfig({});
    assert.deepEqual(config, {
      port: 3000,
      host: 'localhost',
      baseUrl: 'http://localhost:3000',
      secureCookies: false,
      database: { kind: 'sqlite', file: path.resolve('data/steady.db') },
      dataDir: path.resolve('data'),
      adminEmail: null,
      smtpUrl: null,
      mailFrom: 'Steady <steady@localhost>',
      secretKey: null,
      trustProxy: [],
      logLevel: 'info',
      backupDir: null,
      metricsToken: null,
      goalListCacheBytes: 16 * 1024 * 1024,
      vapid: null,
      vapidSubject: 'mailto:steady@localhost',
      pushTestOrigin: null,
    });
  });

  it('reads every variable, trimmed', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      HOST: '0.0.0.0',
      BASE_URL: 'https://Steady.Example.org/',
      DATABASE_URL: 'postgres://steady:pw@db.internal:5432/steady',
      DATA_DIR: '/var/lib/steady',
      ADMIN_EMAIL: '  Boss@Example.COM ',
      SMTP_URL: 'smtps://user:pass@mail.example.org:465',
      MAIL_FROM: 'Steady <noreply@example.org>',
      SECRET_KEY: 'ab'.repeat(32),
      TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16,loopback , 2001:db8::/32 ',
      LOG_LEVEL: 'WARN',
      BACKUP_DIR: ' /var/backups/steady ',
      METRICS_TOKEN: ' 0123456789abcdef ',
      DATABASE_POOL_SIZE: ' 4 ',
      GOAL_LIST_CACHE_MB: '0',
      VAPID_PUBLIC_KEY: ' BGAE03LQZ9lgoizrQjk85aa1zwmPaLMgXodii30QmGkpUts0sXFgREOuPrgJ_S-GTnZwywmVjs0ID-6MH6UyiiQ ',
      VAPID_PRIVATE_KEY: '0zepCSaEqCtg6A9Rf4xPSdmMHDBLPU4IucIDjmFX6zY',
      VAPID_SUBJECT: 'mailto:ops@example.org',
      PUSH_TEST_ORIGIN: 'http://127.0.0.1:4567',
    });
    assert.deepEqual(config, {
      port: 8080,
      host: '0.0.0.0',
      baseUrl: 'https://steady.example.org',
      secureCookies: true,
      database: { kind: 'postgres', url: 'postgres://steady:pw@db.internal:5432/steady', poolSize: 4 },
      dataDir: '/var/lib/steady',
      adminEmail: 'boss@example.com',
      smtpUrl: 'smtps://user:pass@mail.example.org:465',
      mailFrom: 'Steady <noreply@example.org>',
      secretKey: Buffer.alloc(32, 0xab),
      trustProxy: ['10.0.0.1', '192.168.0.0/16', 'loopback', '2001:db8::/32'],
      logLevel: 'warn',
      backupDir: '/var/backups/steady',
      metricsToken: '0123456789abcdef',
      goalListCacheBytes: 0,
      vapid: {
        publicKey: 'BGAE03LQZ9lgoizrQjk85aa1zwmPaLMgXodii30QmGkpUts0sXFgREOuPrgJ_S-GTnZwywmVjs0ID-6MH6UyiiQ',
        privateKey: '0zepCSaEqCtg6A9Rf4xPSdmMHDBLPU4IucIDjmFX6zY',
      },
      vapidSubject: 'mailto:ops@example.org',
      pushTestOrigin: 'http://127.0.0.1:4567',
    });
  });

  it('VAPID_SUBJECT defaults to an https BASE_URL, else to mailto: the MAIL_FROM address', () => {
    assert.equal(loadConfig({ BASE_URL: 'https://steady.example.org' }).vapidSubject, 'https://steady.example.org');
    assert.equal(loadConfig({ MAIL_FROM: 'Steady <noreply@example.org>' }).vapidSubject, 'mailto:noreply@example.org');
  });

  it('derives BASE_URL from PORT, keeps a path prefix, and puts the SQLite data folder beside the file', () => {
    assert.equal(loadConfig({ PORT: '8081' }).baseUrl, 'http://localhost:8081');
    assert.equal(loadConfig({ BASE_URL: 'http://example.org/steady/' }).baseUrl, 'http://example.org/steady');
    const sqlite = loadConfig({ DATABASE_URL: 'sqlite:/srv/steady/db/steady.db' });
    assert.deepEqual(sqlite.database, { kind: 'sqlite', file: '/srv/steady/db/steady.db' });
    assert.equal(sqlite.dataDir, '/srv/steady/db');
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://localhost/steady' }).database.kind, 'postgres');
    assert.equal(loadConfig({ ADMIN_EMAIL: '   ' }).adminEmail, null);
  });

  const refused: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ PORT: '0' }, 'BASE_URL'],
    [{ BASE_URL: 'notaurl' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://example.org' }, 'BASE_URL'],
    [{ BASE_URL: 'https://example.org/?x=1' }, 'BASE_URL'],
    [{ BASE_URL: 'https://user:pw@example.org' }, 'BASE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'steady.db' }, 'DATABASE_URL'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_SIZE: '2.5' }, 'DATABASE_POOL_SIZE'],
    [{ GOAL_LIST_CACHE_MB: '-1' }, 'GOAL_LIST_CACHE_MB'],
    [{ GOAL_LIST_CACHE_MB: 'lots' }, 'GOAL_LIST_CACHE_MB'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ SMTP_URL: 'http://mail.example.org' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'Steady <nobody>' }, 'MAIL_FROM'],
    [{ SECRET_KEY: 'abc' }, 'SECRET_KEY'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'YES' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '::1/129' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/255.0.0.0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.internal' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1 10.0.0.2' }, 'TRUST_PROXY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'sixteen chars with spaces' }, 'METRICS_TOKEN'],
    [
      { VAPID_PUBLIC_KEY: 'BGAE03LQZ9lgoizrQjk85aa1zwmPaLMgXodii30QmGkpUts0sXFgREOuPrgJ_S-GTnZwywmVjs0ID-6MH6UyiiQ' },
      'VAPID_PRIVATE_KEY',
    ],
    [{ VAPID_PRIVATE_KEY: '0zepCSaEqCtg6A9Rf4xPSdmMHDBLPU4IucIDjmFX6zY' }, 'VAPID_PUBLIC_KEY'],
    [
      { VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: '0zepCSaEqCtg6A9Rf4xPSdmMHDBLPU4IucIDjmFX6zY' },
      'VAPID_PUBLIC_KEY',
    ],
    [
      {
        VAPID_PUBLIC_KEY: 'BGAE03LQZ9lgoizrQjk85aa1zwmPaLMgXodii30QmGkpUts0sXFgREOuPrgJ_S-GTnZwywmVjs0ID-6MH6UyiiQ',
        VAPID_PRIVATE_KEY: 'short',
      },
      'VAPID_PRIVATE_KEY',
    ],
    [{ VAPID_SUBJECT: 'ops@example.org' }, 'VAPID_SUBJECT'],
    [{ VAPID_SUBJECT: 'http://example.org' }, 'VAPID_SUBJECT'],
    [{ PUSH_TEST_ORIGIN: 'http://127.0.0.1:4567/push' }, 'PUSH_TEST_ORIGIN'],
    [{ PUSH_TEST_ORIGIN: 'ftp://127.0.0.1' }, 'PUSH_TEST_ORIGIN'],
  ];
  for (const [env, variable] of refused) {
    it(`refuses ${JSON.stringify(env)} with an error naming ${variable}`, () => {
      const error = configError(env);
      assert.equal(error.variable, variable);
      assert.ok(error.message.startsWith(`${variable}: `), error.message);
      assert.doesNotMatch(error.message, /\n/);
    });
  }

  it('TRUST_PROXY: unset or false trusts nobody; true asks for the proxy address instead', () => {
    for (const value of ['', ' ', 'false', 'OFF', '0', 'no']) {
      assert.deepEqual(loadConfig({ TRUST_PROXY: value }).trustProxy, [], value);
    }
    assert.equal(
      configError({ TRUST_PROXY: 'true' }).message,
      `TRUST_PROXY: "true" would trust every client's X-Forwarded-For; give your proxy's address instead, e.g. 127.0.0.1 or loopback`,
    );
    assert.equal(
      configError({ TRUST_PROXY: '127.0.0.1, proxy.internal' }).message,
      'TRUST_PROXY: "proxy.internal" is not an IP address, a CIDR network (10.0.0.0/8) or one of loopback, linklocal, uniquelocal',
    );
  });

  it('TRUST_PROXY: every form it accepts is one Fastify accepts too', async () => {
    const accepted = loadConfig({
      TRUST_PROXY: '127.0.0.1,::1,10.0.0.0/8,fd00::/8,::ffff:10.0.0.1,loopback,linklocal,uniquelocal,0.0.0.0/1',
    });
    assert.equal(accepted.trustProxy.length, 9);
    const app = Fastify({ trustProxy: accepted.trustProxy.join(',') });
    await app.ready();
    await app.close();
  });

  it('names the way to give a PostgreSQL user without a host, which libpq takes and a URL parser does not', () => {
    for (const url of ['postgres://steady@/steady?host=/run/postgresql', 'postgresql://steady:hunter2@/steady']) {
      const error = configError({ DATABASE_URL: url });
      assert.match(
        error.message,
        /names a user but no host; name one, e\.g\. postgres:\/\/steady@localhost\/steady\?host=/,
      );
      assert.doesNotMatch(error.message, /hunter2/);
    }
    const named = loadConfig({ DATABASE_URL: 'postgres://steady@localhost/steady?host=/var/run/postgresql' });
    assert.equal(named.database.kind, 'postgres');
  });

  it('does not repeat a database password in its error', () => {
    const error = configError({ DATABASE_URL: 'mysql://steady:hunter2@db/steady' });
    assert.doesNotMatch(error.message, /hunter2/);
  });
});
