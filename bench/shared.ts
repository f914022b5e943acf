// What bench/run.ts and its server process (bench/server.ts) share: the seed, the info line, the /stats answer.

/** One kind of seeded user: `users` of them, each with `goals` goals of `dates` dates of `amountsPerDate` amounts. */
export interface SeedGroup {
  users: number;
  goals: number;
  dates: number;
  amountsPerDate: number;
}

export interface SeededUser {
  email: string;
  cookie: string;
  goalIds: string[];
  group: number;
}

export interface ServerInfo {
  pid: number;
  hello: string;
  stats: string;
  app: string;
  /** The DATABASE_URL the app serves, where the floor (bench/floor-server.ts) works beside it. */
  database: string;
  origin: string;
  password: string;
  users: SeededUser[];
}

/** What /stats answers. */
export interface ServerStats {
  cpuMicros: number;
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Event-loop delay since the last /stats/reset, in ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** The CPU time this process has used (user and system), in µs: what run.ts reads around each round. */
export function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

export const BENCH_PASSWORD = 'bench password';

/** The `sets` the bench seeds and PATCHes: `dates` days from 2016-01-01, each with `amountsPerDate` amounts. */
export function benchSets(dates: number, amountsPerDate: number, salt = 0): Record<string, number[]> {
  const sets: Record<string, number[]> = {};
  for (let d = 0; d < dates; d++) {
    const date = new Date(Date.UTC(2016, 0, 1 + d)).toISOString().slice(0, 10);
    sets[date] = Array.from({ length: amountsPerDate }, (_, a) => 5 + ((salt + d + a) % 20) + (a === 2 ? 0.5 : 0));
  }
  return sets;
}

/** The first line of the floor's process (bench/floor-server.ts). */
export interface FloorInfo {
  pid: number;
  url: string;
  stats: string;
}

/** The Node flags of package.json's start script (`exec node FLAGS dist/server/main.js`): the bench's servers run with them. */
export function startScriptNodeFlags(script: string): string[] {
  const start = /^(?:exec )?node (.*?)\s*dist\/server\/main\.js$/.exec(script);
  if (!start) throw new Error(`cannot read the Node flags of the start script: ${script}`);
  return start[1]!.split(' ').filter(Boolean);
}
