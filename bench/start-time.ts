// Start time, as issue 7 asks it to be printed: from spawning a process until GET /healthz answers, for the built
// server (`node dist/server/main.js`, target <= 0.5 s) and for `npm start` on a built checkout (target <= 1.5 s),
// each on a first start (empty database: migrations, first invite) and on a restart. Figures only, no verdict: a
// busy 2-core machine moves them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function printStartTimes(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
    console.log('start time: skipped, no build (run npm run build)');
    return;
  }
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'steady-bench-start-'));
  try {
    const env = {
      DATABASE_URL: `sqlite:${path.join(dataDir, 'steady.db')}`,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    const server = [process.execPath, 'dist/server/main.js'];
    const first = await timeToFirstAnswer(server, env);
    const again = await timeToFirstAnswer(server, env);
    const npm = await timeToFirstAnswer(['npm', 'start', '--silent'], env);
    console.log('');
    console.log(
      `server start to first answer (node dist/server/main.js): first start ${ms(first)}, restart ${ms(again)} (target <= 500 ms)`,
    );
    console.log(`npm start on a built checkout to first answer:             ${ms(npm)} (target <= 1500 ms)`);
  } finally {
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

async function timeToFirstAnswer(command: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > 30_000) throw new Error(`${command.join(' ')} did not answer within 30 s`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (response.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    // npm starts node as its child: end the whole group, and wait so the next start finds the database free.
    const closed = new Promise((resolve) => child.on('close', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await closed;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
