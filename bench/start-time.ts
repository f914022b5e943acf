// Start time, as issue 7 asks it to be printed: from spawning a process until GET /healthz answers, for the built
// server (`node dist/server/main.js`, target <= 0.5 s) and for `npm start` on a built checkout (target <= 1.5 s),
// each on a first start (empty database: migrations, first invite) and on a restart. One start moves by 30-50 ms
// between runs on a 2-core machine, so each figure is taken STARTS times and judged by its median; the slowest
// start is printed beside it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = 5;
const START_TIME_TARGETS_MS = { server: 500, npmStart: 1500 };

export interface StartTimes {
  starts: number;
  /** Milliseconds from spawn to the first answer, one per start. */
  serverFirstStartMs: number[];
  serverRestartMs: number[];
  npmStartMs: number[];
}

/** Measures and prints the start times; null when there is no build to start. */
export async function printStartTimes(): Promise<StartTimes | null> {
  if (!fs.existsSync(path.join(root, 'dist/server/main.js'))) {
    console.log('start time: skipped, no build (run npm run build)');
    return null;
  }
  const server = [process.execPath, 'dist/server/main.js'];
  const times: StartTimes = { starts: STARTS, serverFirstStartMs: [], serverRestartMs: [], npmStartMs: [] };
  for (let run = 0; run < STARTS; run++) {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'steady-bench-start-'));
    try {
      const env = {
        DATABASE_URL: `sqlite:${path.join(dataDir, 'steady.db')}`,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      };
      times.serverFirstStartMs.push(await timeToFirstAnswer(server, env));
      times.serverRestartMs.push(await timeToFirstAnswer(server, env));
      times.npmStartMs.push(await timeToFirstAnswer(['npm', 'start', '--silent'], env));
    } finally {
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  }
  console.log(`\nstart to first answer, ${STARTS} starts each (median, slowest):`);
  const target = `(target <= ${START_TIME_TARGETS_MS.server} ms)`;
  console.log(`  node dist/server/main.js, first start  ${spread(times.serverFirstStartMs)} ${target}`);
  console.log(`  node dist/server/main.js, restart      ${spread(times.serverRestartMs)} ${target}`);
  console.log(
    `  npm start on a built checkout          ${spread(times.npmStartMs)} (target <= ${START_TIME_TARGETS_MS.npmStart} ms)`,
  );
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The figures whose median is above its target, in the bench's words for a miss. */
export function startTimeMisses(times: StartTimes): string[] {
  const figures: [string, number[], number][] = [
    ['server first start', times.serverFirstStartMs, START_TIME_TARGETS_MS.server],
    ['server restart', times.serverRestartMs, START_TIME_TARGETS_MS.server],
    ['npm start', times.npmStartMs, START_TIME_TARGETS_MS.npmStart],
  ];
  return figures
    .filter(([, values, target]) => median(values) > target)
    .map(([name, values, target]) => `start time, ${name}: median ${median(values).toFixed(0)} ms > ${target} ms`);
}

function spread(values: number[]): string {
  return `${median(values).toFixed(0).padStart(5)} ms, ${Math.max(...values)
    .toFixed(0)
    .padStart(5)} ms`;
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
