import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServiceApp } from '@flatship/kit';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, test } from 'vitest';
import { type Resource, renderKustomization } from '../src/k8s/kustomize';
import { REPO_ROOT } from '../src/paths';
import { environmentProblems, INFRA_JOBS, isBuiltEntry, PROCESSES, SAMPLE_SECRETS } from './deploy/services';

// infra/k8s rendered as kubectl would (../src/k8s/kustomize.ts), every object
// validated against the Kubernetes OpenAPI schemas that kubernetes-models
// ships (offline), then checked for what running Flatship needs.

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string } }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface PodSpec {
  containers: Container[];
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
}
type Workload = Resource & {
  spec: { template: { metadata: { labels: Record<string, string> }; spec: PodSpec }; replicas?: number };
};

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Service': Service,
};

function schemaProblems(resources: Resource[]): string[] {
  const problems: string[] = [];
  for (const r of resources) {
    const Model = MODELS[`${r.apiVersion} ${r.kind}`];
    if (!Model) {
      problems.push(`${r.apiVersion} ${r.kind} ${r.metadata.name}: no schema for this kind here`);
      continue;
    }
    try {
      new Model(r as never).validate();
    } catch (err) {
      problems.push(`${r.kind} ${r.metadata.name}: ${(err as Error).message}`);
    }
  }
  return problems;
}

const K8S = join(REPO_ROOT, 'infra', 'k8s');
const base = renderKustomization(join(K8S, 'base'));
const overlay = renderKustomization(join(K8S, 'overlays', 'example'));

const ofKind = <T = Resource>(resources: Resource[], kind: string) =>
  resources.filter((r) => r.kind === kind) as unknown as T[];
const named = <T = Resource>(resources: Resource[], kind: string, name: string) =>
  ofKind<T>(resources, kind).find((r) => (r as Resource).metadata.name === name);

const deployments = ofKind<Workload>(overlay, 'Deployment');
const jobs = ofKind<Workload>(overlay, 'Job');
const configMaps = ofKind<Resource & { data: Record<string, string> }>(overlay, 'ConfigMap');

/** The environment a container starts with: its ConfigMaps, then its env, secrets as sample values. */
function environmentOfContainer(c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    const map = configMaps.find((m) => m.metadata.name === from.configMapRef?.name);
    if (!map) throw new Error(`${c.name}: no ConfigMap ${from.configMapRef?.name}`);
    Object.assign(env, map.data);
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) {
      const sample = SAMPLE_SECRETS[ref.key];
      if (sample !== undefined) env[e.name] = sample;
      else if (!ref.optional) throw new Error(`${c.name}: secret key ${ref.key} has no sample value`);
    } else if (e.value !== undefined) env[e.name] = e.value;
  }
  return env;
}

describe('infra/k8s', () => {
  test('every rendered object is valid against the Kubernetes schemas, base and overlay', () => {
    expect(schemaProblems(base)).toEqual([]);
    expect(schemaProblems(overlay)).toEqual([]);
    expect(overlay).toHaveLength(base.length);
  });

  test('the schema check refuses a broken object and an unknown kind', () => {
    const broken = structuredClone(named<Workload>(overlay, 'Deployment', 'orders')) as Workload;
    (broken.spec.template.spec.containers[0] as unknown as Record<string, unknown>).ports = [{ containerPort: 'http' }];
    expect(schemaProblems([broken])[0]).toMatch(/containerPort must be integer/);
    const ingress = { apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'x' } };
    expect(schemaProblems([ingress])).toEqual(['extensions/v1beta1 Ingress x: no schema for this kind here']);
  });

  test('the base is namespace-free; the overlay puts everything in its namespace with its images', () => {
    expect(base.filter((r) => r.metadata.namespace)).toEqual([]);
    expect(overlay.every((r) => r.metadata.namespace === 'flatship')).toBe(true);
    for (const w of [...deployments, ...jobs]) {
      for (const c of w.spec.template.spec.containers) {
        expect(c.image, w.metadata.name).toMatch(/^registry\.example\.com\/flatship\/[a-z-]+:1\.0\.0$/);
      }
    }
    expect(overlay.every((r) => r.metadata.labels?.['app.kubernetes.io/part-of'] === 'flatship')).toBe(true);
  });

  test('one Deployment, Service, ConfigMap and PodDisruptionBudget per service; no Secret values committed', () => {
    const services = Object.keys(PROCESSES).filter((name) => name !== 'btcpay');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...services].sort());
    // Each runs its own image, whose command is its workspace's compiled entry.
    for (const d of deployments) {
      const [c] = d.spec.template.spec.containers;
      expect(c?.image.split('/').at(-1)?.split(':')[0], d.metadata.name).toBe(d.metadata.name);
      expect(c?.command, d.metadata.name).toBeUndefined();
      expect(isBuiltEntry(`${PROCESSES[d.metadata.name]?.workspace}/dist/main.js`), d.metadata.name).toBe(true);
    }
    for (const name of services) {
      expect(named(overlay, 'Service', name), name).toBeDefined();
      expect(named(overlay, 'ConfigMap', `${name}-config`), name).toBeDefined();
      const pdb = named<Resource & { spec: { selector: { matchLabels: Record<string, string> } } }>(
        overlay,
        'PodDisruptionBudget',
        name,
      );
      expect(pdb?.spec.selector.matchLabels, name).toEqual({ 'app.kubernetes.io/name': name });
    }
    expect(ofKind(overlay, 'Secret')).toEqual([]);
    const literalSecrets = [...deployments, ...jobs].flatMap((w) =>
      w.spec.template.spec.containers.flatMap((c) =>
        (c.env ?? []).filter((e) => e.value !== undefined && /SECRET|KEY|PASSWORD|TOKEN/.test(e.name)),
      ),
    );
    expect(literalSecrets).toEqual([]);
    const inConfigMaps = configMaps.flatMap((m) =>
      Object.keys(m.data).filter((k) => /SECRET|PRIVATE_KEY|PASSWORD|TOKEN|API_KEY/.test(k)),
    );
    expect(inConfigMaps).toEqual([]);
  });

  test("each service's environment is what its configuration schema accepts, on the Kafka bus, as its own role", () => {
    const problems = deployments.flatMap((d) =>
      d.spec.template.spec.containers.flatMap((c) => environmentProblems(d.metadata.name, environmentOfContainer(c))),
    );
    expect(problems).toEqual([]);
  });

  test('probes: started and alive on /healthz, ready on /readyz, on the port the service listens on', async () => {
    for (const d of deployments) {
      const [c] = d.spec.template.spec.containers;
      if (!c) throw new Error(`${d.metadata.name} has no container`);
      expect(c.startupProbe?.httpGet?.path, d.metadata.name).toBe('/healthz');
      expect(c.livenessProbe?.httpGet?.path, d.metadata.name).toBe('/healthz');
      expect(c.readinessProbe?.httpGet?.path, d.metadata.name).toBe('/readyz');
      const port = c.ports?.find((p) => p.name === c.readinessProbe?.httpGet?.port)?.containerPort;
      expect(String(port), d.metadata.name).toBe(environmentOfContainer(c).PORT);
    }
    // The paths exist: every service and the gateway are built on kit's app, which serves them.
    for (const d of deployments) {
      const app = readFileSync(join(REPO_ROOT, PROCESSES[d.metadata.name]?.workspace ?? '-', 'src', 'app.ts'), 'utf8');
      expect(app, d.metadata.name).toContain('createServiceApp(');
    }
    const app = createServiceApp({ name: 'probe', logger: false });
    for (const path of ['/healthz', '/readyz']) expect((await app.inject({ url: path })).statusCode, path).toBe(200);
    await app.close();
  });

  test('every container has requests and limits, runs as non-root with a read-only root filesystem', () => {
    for (const w of [...deployments, ...jobs]) {
      const pod = w.spec.template.spec;
      expect(pod.securityContext?.runAsNonRoot, w.metadata.name).toBe(true);
      expect(pod.securityContext?.runAsUser, w.metadata.name).toBe(1000);
      for (const c of pod.containers) {
        for (const r of ['cpu', 'memory']) {
          expect(c.resources?.requests?.[r], `${c.name} ${r} request`).toBeDefined();
          expect(c.resources?.limits?.[r], `${c.name} ${r} limit`).toBeDefined();
        }
        expect(c.securityContext, c.name).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  test('the label worker renders with as many threads as its CPU limit allows', () => {
    const c = named<Workload>(overlay, 'Deployment', 'label-worker')?.spec.template.spec.containers[0] as Container;
    const cpu = c.resources?.limits?.cpu ?? '';
    const cores = cpu.endsWith('m') ? Number.parseInt(cpu, 10) / 1000 : Number(cpu);
    expect(Number(environmentOfContainer(c).LABEL_RENDER_THREADS)).toBe(Math.max(1, Math.floor(cores)));
  });

  test('services get more time to stop than they take to drain and shut down gracefully', () => {
    for (const d of deployments) {
      const env = environmentOfContainer(d.spec.template.spec.containers[0] as Container);
      const stopMs = Number(env.SHUTDOWN_DRAIN_MS ?? 0) + Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
      expect(Number(env.SHUTDOWN_DRAIN_MS), d.metadata.name).toBeGreaterThan(0);
      expect((d.spec.template.spec.terminationGracePeriodSeconds ?? 30) * 1000, d.metadata.name).toBeGreaterThan(
        stopMs,
      );
    }
  });

  test('Prometheus is told where each pod serves /metrics; the gateway serves it on its management port', () => {
    for (const d of deployments) {
      const c = d.spec.template.spec.containers[0] as Container;
      const annotations = (d.spec.template.metadata as { annotations?: Record<string, string> }).annotations ?? {};
      const env = environmentOfContainer(c);
      const metricsPort = d.metadata.name === 'gateway' ? env.METRICS_PORT : env.PORT;
      expect(annotations['prometheus.io/port'], d.metadata.name).toBe(metricsPort);
      expect(annotations['prometheus.io/path'], d.metadata.name).toBe('/metrics');
      expect(c.ports?.some((p) => String(p.containerPort) === metricsPort)).toBe(true);
    }
    const gateway = environmentOfContainer(
      named<Workload>(overlay, 'Deployment', 'gateway')?.spec.template.spec.containers[0] as Container,
    );
    expect(gateway.MANAGEMENT_HOST).toBe('0.0.0.0');
    expect(gateway.METRICS_PORT).not.toBe(gateway.PORT);
  });

  test('orders and label-worker share one ReadWriteMany volume at FILES_DIR', () => {
    const pvc = named<Resource & { spec: { accessModes: string[] } }>(overlay, 'PersistentVolumeClaim', 'label-files');
    expect(pvc?.spec.accessModes).toEqual(['ReadWriteMany']);
    for (const name of ['orders', 'label-worker']) {
      const pod = named<Workload>(overlay, 'Deployment', name)?.spec.template.spec as PodSpec;
      const volume = pod.volumes?.find((v) => v.persistentVolumeClaim?.claimName === 'label-files');
      const c = pod.containers[0] as Container;
      const mount = c.volumeMounts?.find((m) => m.name === volume?.name);
      expect(mount?.mountPath, name).toBe(environmentOfContainer(c).FILES_DIR);
    }
  });

  test('Services select their Deployment and reach its named port', () => {
    for (const s of ofKind<
      Resource & { spec: { selector: Record<string, string>; ports: { port: number; targetPort: string }[] } }
    >(overlay, 'Service')) {
      const d = deployments.filter((w) =>
        Object.entries(s.spec.selector).every(([k, v]) => w.spec.template.metadata.labels[k] === v),
      );
      expect(d.map((w) => w.metadata.name)).toEqual([s.metadata.name]);
      const c = d[0]?.spec.template.spec.containers[0] as Container;
      for (const p of s.spec.ports) {
        expect(c.ports?.find((cp) => cp.name === p.targetPort)?.containerPort, s.metadata.name).toBe(p.port);
      }
    }
  });

  test('the label workers scale on their consumer lag and the gateway on CPU', () => {
    type Hpa = Resource & {
      spec: {
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        metrics: { type: string; external?: { metric: { name: string } }; resource?: { name: string } }[];
      };
    };
    const hpas = ofKind<Hpa>(overlay, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.metadata.name).sort()).toEqual(['gateway', 'label-worker']);
    for (const h of hpas) {
      expect(named(overlay, h.spec.scaleTargetRef.kind, h.spec.scaleTargetRef.name), h.metadata.name).toBeDefined();
      expect(h.spec.minReplicas, h.metadata.name).toBeGreaterThanOrEqual(2);
    }
    const worker = hpas.find((h) => h.metadata.name === 'label-worker');
    expect(worker?.spec.metrics.map((m) => m.external?.metric.name)).toEqual(['flatship_bus_consumer_lag']);
    const gateway = hpas.find((h) => h.metadata.name === 'gateway');
    expect(gateway?.spec.metrics.map((m) => m.resource?.name)).toEqual(['cpu']);
  });

  test('only the gateway is reachable from outside the namespace; the rest from its pods and monitoring', () => {
    type Policy = Resource & {
      spec: {
        podSelector: { matchLabels?: Record<string, string> };
        policyTypes: string[];
        ingress?: { from?: Source[]; ports?: { port: string }[] }[];
      };
    };
    // A rule without "from" admits every source, inside the cluster or out.
    type Source = {
      podSelector?: object;
      namespaceSelector?: { matchLabels: Record<string, string> };
      anywhere?: true;
    };
    const policies = ofKind<Policy>(overlay, 'NetworkPolicy');
    const selects = (p: Policy, labels: Record<string, string>) =>
      Object.entries(p.spec.podSelector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
    // From outside, the gateway's public port only: not its management port.
    const open = policies.flatMap((p) => (p.spec.ingress ?? []).filter((rule) => !rule.from));
    expect(open.map((rule) => rule.ports?.map((p) => p.port))).toEqual([['http']]);
    const deny = policies.find((p) => !p.spec.podSelector.matchLabels && p.spec.ingress === undefined);
    expect(deny?.spec.policyTypes).toEqual(['Ingress']);
    for (const d of deployments) {
      const labels = d.spec.template.metadata.labels;
      const sources = policies
        .filter((p) => selects(p, labels))
        .flatMap((p) => p.spec.ingress ?? [])
        .flatMap((rule): Source[] => rule.from ?? [{ anywhere: true }]);
      const fromAnywhere = sources.some((s) => s.anywhere);
      expect(fromAnywhere, d.metadata.name).toBe(d.metadata.name === 'gateway');
      const otherNamespaces = sources
        .flatMap((s) => (s.namespaceSelector ? [s.namespaceSelector.matchLabels] : []))
        .map((m) => m['kubernetes.io/metadata.name']);
      expect(otherNamespaces, d.metadata.name).toEqual(['monitoring']);
      expect(
        sources.some((s) => s.podSelector && !s.namespaceSelector),
        d.metadata.name,
      ).toBe(true);
    }
  });

  test('a database setup Job and a topics Job run the infra entries with what they need', () => {
    const commands = jobs.map((j) => j.spec.template.spec.containers[0]?.command?.join(' '));
    expect(commands.sort()).toEqual(['node infra/dist/create-topics.js', 'node infra/dist/db-setup.js']);
    for (const command of commands) {
      const entry = command?.split(' ')[1] as string;
      expect(INFRA_JOBS).toContain(entry);
      expect(isBuiltEntry(entry), entry).toBe(true);
    }
    const setup = named<Workload>(overlay, 'Job', 'db-setup')?.spec.template.spec.containers[0] as Container;
    const setupEnv = environmentOfContainer(setup);
    for (const key of ['DATABASE_ADMIN_URL', 'DB_PASSWORD_AUTH', 'DB_PASSWORD_ORDERS', 'DB_PASSWORD_ADMIN']) {
      expect(setupEnv[key], key).toBeDefined();
    }
    const topics = named<Workload>(overlay, 'Job', 'kafka-topics')?.spec.template.spec.containers[0] as Container;
    expect(environmentOfContainer(topics).KAFKA_BROKERS).toMatch(/^kafka-0\./);
  });
});
