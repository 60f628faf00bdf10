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

/**
 * Where people open the product, which emailed links point to: the operator's
 * PUBLIC_URL when a proxy or a domain is in front, else the printed address.
 */
export function productUrl(host: string, port: number, configured?: string): string {
  return configured?.trim() || publicUrl(host, port);
}

/** Where processes on this machine reach a listener on `host`: a wildcard listener answers on loopback. */
export function reachableHost(host: string): string {
  return ['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host;
}

/** `http://host:port` with an IPv6 host in brackets. */
export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
