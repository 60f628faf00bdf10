import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root, found from this file so the launcher works from any working directory. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The address to show people: loopback and wildcard interfaces are reachable as localhost. */
export function publicUrl(host: string, port: number): string {
  const local = ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'].includes(host);
  const shown = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}
