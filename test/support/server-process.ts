import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import net from 'node:net';
import { projectRoot } from '../../src/server/paths.js';

/** The real entry point (`src/server/main.ts`) as its own process, with its JSON log lines at hand. */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout so far. */
  output(): string;
  /** Everything written to stderr so far (where a failed start says why). */
  errors(): string;
  /** Parsed JSON log lines so far. */
  lines(): Record<string, any>[];
  /** Resolves with the first log line `match` accepts (waiting for it); rejects when the process ends first. */
  waitForLine(match: (line: Record<string, any>) => boolean, timeoutMs?: number): Promise<Record<string, any>>;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  kill(): void;
}

/** Starts the server with only `env` (and PATH); stdout is a pipe, so it logs JSON lines. */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      for (const wake of waiters) wake();
      resolve(code);
    }),
  );
  const lines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, any>);
  return {
    child,
    output: () => stdout,
    errors: () => stderr,
    lines,
    exited,
    kill: () => {
      if (!ended) child.kill('SIGKILL');
    },
    waitForLine(match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => done(new Error(`log line not seen within ${timeoutMs} ms:\n${stdout}${stderr}`)),
          timeoutMs,
        );
        const done = (error: Error | null, line?: Record<string, any>) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(line!);
        };
        const check = () => {
          const found = lines().find(match);
          if (found) done(null, found);
          else if (ended) done(new Error(`server ended before the log line:\n${stdout}${stderr}`));
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** A port that was free a moment ago (for a server whose BASE_URL must name its port). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
