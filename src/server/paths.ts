import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: this file sits two folders down, as `src/server/` when run by tsx and `dist/server/` when built. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const defaultWebRoot = path.join(projectRoot, 'dist', 'web');
