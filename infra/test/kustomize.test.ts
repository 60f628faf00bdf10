import { join } from 'node:path';
import { expect, test } from 'vitest';
import { applyJsonPatch, renderKustomization, toYaml } from '../src/k8s/kustomize';

// The renderer behind the infra/k8s checks, on a small kustomization that uses
// each feature it supports once, compared with what kustomize renders for it.

const fixtures = join(import.meta.dirname, 'fixtures', 'kustomize');

test('renders resources, namespace, labels, images and JSON patches as kustomize does', () => {
  expect(renderKustomization(join(fixtures, 'overlay'))).toEqual([
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'app-config', namespace: 'prod', labels: { team: 'shipping', stage: 'prod' } },
      data: { MODE: 'production', EXTRA: 'yes' },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'app', namespace: 'prod', labels: { team: 'shipping', stage: 'prod' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'app' } },
        template: {
          // The base's labels reach the pod template (includeTemplates); the overlay's do not.
          metadata: { labels: { app: 'app', team: 'shipping' } },
          spec: {
            initContainers: [{ name: 'wait', image: 'registry.local:5000/tools/wait:1.3' }],
            containers: [
              { name: 'app', image: 'registry.example.com/app:2.0' },
              { name: 'sidecar', image: 'registry.example.com/sidecar:0.9@sha256:abc' },
            ],
          },
        },
      },
    },
  ]);
});

test('the base renders without a namespace and is printed as one YAML stream', () => {
  const base = renderKustomization(join(fixtures, 'base'));
  expect(base.map((r) => r.metadata.namespace)).toEqual([undefined, undefined]);
  const yaml = toYaml(base);
  expect(yaml.split('\n---\n')).toHaveLength(2);
  expect(yaml).toContain('image: flatship/app\n');
});

test('a field it does not support is refused by name', () => {
  expect(() => renderKustomization(join(fixtures, 'unsupported'))).toThrow(/namePrefix not supported by this renderer/);
});

test('a patch on a path that does not exist fails, naming the resource', () => {
  const doc = { kind: 'ConfigMap', data: { A: '1' }, list: ['a'] };
  expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/data/B', value: '2' }], 'ConfigMap/x')).toThrow(
    'ConfigMap/x: /data/B does not exist',
  );
  expect(() => applyJsonPatch(doc, [{ op: 'add', path: '/spec/x', value: 1 }], 'ConfigMap/x')).toThrow(
    'ConfigMap/x: /spec/x does not exist',
  );
  expect(() => applyJsonPatch(doc, [{ op: 'move', path: '/data/A' }], 'ConfigMap/x')).toThrow(/op move/);
  applyJsonPatch(
    doc,
    [
      { op: 'add', path: '/list/-', value: 'b' },
      { op: 'add', path: '/data/a~1b', value: '3' },
    ],
    '',
  );
  expect(doc).toEqual({ kind: 'ConfigMap', data: { A: '1', 'a/b': '3' }, list: ['a', 'b'] });
});
