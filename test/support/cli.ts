import { execFile } from 'node:child_process';
import { projectRoot } from '../../src/server/paths.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `steady` as an operator would, as its own process with only the environment given here; one still running
 * after `timeoutMs` is killed (code null).
 */
export function steady(args: string[], env: Record<string, string>, { timeoutMs = 60_000 } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
