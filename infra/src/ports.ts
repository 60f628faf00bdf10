/**
 * Rules every fixed port of the embedded topology obeys, kept in one place.
 *
 * Browsers and Node's built-in fetch (undici) refuse to connect to the
 * "bad ports" of the Fetch standard (https://fetch.spec.whatwg.org/#bad-port),
 * so a service listening on one of them is unreachable however healthy it is.
 * A fixed port inside the ephemeral range would sooner or later collide with
 * the source port of some outgoing connection, so fixed ports stay below it.
 */

/** The Fetch standard's bad ports, in the order the standard lists them. */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * The lowest port any common system hands out for outgoing connections:
 * Linux uses 32768–60999 by default, Windows, macOS and the IANA range 49152–65535.
 */
export const EPHEMERAL_PORTS_START = 32768;

/** Ports below this need privileges on most systems. */
export const FIRST_UNPRIVILEGED_PORT = 1024;

/** Why `port` cannot be a fixed default port, or null when it can. */
export function defaultPortProblem(port: number): string | null {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `${port} is not a TCP port`;
  if (FETCH_BAD_PORTS.has(port))
    return `${port} is on the Fetch standard's bad-ports list (browsers and fetch refuse it)`;
  if (port < FIRST_UNPRIVILEGED_PORT) return `${port} needs privileges to listen on`;
  if (port >= EPHEMERAL_PORTS_START) return `${port} is in the ephemeral range (${EPHEMERAL_PORTS_START} and up)`;
  return null;
}
