import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root, found from this file so the launcher works from any working directory. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
