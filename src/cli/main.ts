// The `steady` command: `bin/steady.js` imports the built copy; in development `node --import tsx src/cli/main.ts`.
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
