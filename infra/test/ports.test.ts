import { expect, test } from 'vitest';
import { loadLauncherConfig } from '../src/config';
import { defaultPortProblem, EPHEMERAL_PORTS_START, FETCH_BAD_PORTS } from '../src/ports';
import { GATEWAY, GATEWAY_METRICS_PORT, POSTGRES_PORT, SERVICE_REGISTRY } from '../src/services';

/** Every port the embedded topology uses when nobody chooses one; the gateway's is the launcher's PORT. */
const defaults: [string, number][] = [
  ...SERVICE_REGISTRY.filter((def) => def.name !== GATEWAY).map((def): [string, number] => [def.name, def.port]),
  ['postgres', POSTGRES_PORT],
  ['gateway metrics', GATEWAY_METRICS_PORT],
  ['gateway (PORT)', loadLauncherConfig({}).PORT],
];

/** Why Node's built-in fetch refused to reach `port`, or what else happened. */
async function fetchOutcome(port: number): Promise<string> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return 'answered';
  } catch (e) {
    const cause = (e as { cause?: { message?: string; code?: string } }).cause;
    return cause?.message === 'bad port' ? 'bad port' : (cause?.code ?? (e as Error).name);
  }
}

test.each(defaults)(
  'the default port of %s (%i) is one fetch accepts, outside the ephemeral range',
  async (_name, port) => {
    expect(defaultPortProblem(port)).toBeNull();
    expect(await fetchOutcome(port)).not.toBe('bad port');
  },
);

test('no two processes share a default port', () => {
  const ports = defaults.map(([, port]) => port);
  expect(new Set(ports).size).toBe(ports.length);
  expect(SERVICE_REGISTRY.find((def) => def.name === GATEWAY)?.port).toBe(loadLauncherConfig({}).PORT);
});

test('every port on the list is one Node’s fetch refuses, and the rule refuses it', async () => {
  for (const port of FETCH_BAD_PORTS) {
    if (port === 0) continue;
    expect(defaultPortProblem(port)).not.toBeNull();
    expect(await fetchOutcome(port), `port ${port}`).toBe('bad port');
  }
  // 4190 is the port the BTCPay simulator once used, and why this list exists.
  expect(defaultPortProblem(4190)).toMatch(/bad-ports list/);
});

test('the rule also refuses ports the system hands out, privileged ports and non-ports', () => {
  expect(defaultPortProblem(EPHEMERAL_PORTS_START)).toMatch(/ephemeral/);
  expect(defaultPortProblem(65535)).toMatch(/ephemeral/);
  expect(defaultPortProblem(80)).toMatch(/privileges/);
  expect(defaultPortProblem(0)).toMatch(/not a TCP port/);
  expect(defaultPortProblem(70000)).toMatch(/not a TCP port/);
  expect(defaultPortProblem(4170)).toBeNull();
});
