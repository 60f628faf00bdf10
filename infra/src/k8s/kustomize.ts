import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

/**
 * Renders a kustomization the way `kubectl kustomize` does, for exactly the
 * features Flatship's manifests use (infra/k8s): resources (files of one or
 * more documents, and other kustomization directories), namespace, labels
 * (with includeTemplates), images, and JSON 6902 patches with a target. Any
 * other field is refused by name rather than silently ignored, so a manifest
 * that starts using one fails its test until this renderer learns it.
 */

export type Resource = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
} & Record<string, unknown>;

interface LabelsEntry {
  pairs: Record<string, string>;
  includeSelectors?: boolean;
  includeTemplates?: boolean;
}

interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface PatchEntry {
  patch?: string;
  path?: string;
  target?: { kind?: string; name?: string; group?: string; version?: string };
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  labels?: LabelsEntry[];
  images?: ImageEntry[];
  patches?: PatchEntry[];
}

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);

/** Kinds that belong to no namespace: the namespace transformer leaves them alone. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'PersistentVolume',
  'StorageClass',
  'CustomResourceDefinition',
  'PriorityClass',
  'IngressClass',
]);

export class KustomizeError extends Error {
  override name = 'KustomizeError';
}

function readDocuments(file: string): Resource[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const resources: Resource[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new KustomizeError(`${file}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as Resource | null;
    if (value === null) continue;
    if (!value.apiVersion || !value.kind || !value.metadata?.name) {
      throw new KustomizeError(`${file}: a document without apiVersion, kind or metadata.name`);
    }
    resources.push(value);
  }
  return resources;
}

const podTemplateOf = (r: Resource) => (r.spec as { template?: Record<string, unknown> } | undefined)?.template;

function applyLabels(resources: Resource[], entry: LabelsEntry): void {
  if (entry.includeSelectors) throw new KustomizeError('labels with includeSelectors are not supported');
  for (const r of resources) {
    r.metadata.labels = { ...r.metadata.labels, ...entry.pairs };
    const template = podTemplateOf(r) as { metadata?: { labels?: Record<string, string> } } | undefined;
    if (entry.includeTemplates && template) {
      template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...entry.pairs } };
    }
  }
}

/** name[:tag][@digest], where a colon before the last slash belongs to a registry port. */
function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [rest = '', digest] = image.split('@');
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) return { name: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  return { name: rest, digest };
}

function applyImages(resources: Resource[], images: ImageEntry[]): void {
  for (const r of resources) {
    const spec = (podTemplateOf(r) as { spec?: Record<string, unknown> } | undefined)?.spec;
    if (!spec) continue;
    const containers = [
      ...((spec.containers as { image?: string }[] | undefined) ?? []),
      ...((spec.initContainers as { image?: string }[] | undefined) ?? []),
    ];
    for (const c of containers) {
      if (!c.image) continue;
      const current = splitImage(c.image);
      const entry = images.find((i) => i.name === current.name);
      if (!entry) continue;
      const name = entry.newName ?? current.name;
      if (entry.digest) c.image = `${name}@${entry.digest}`;
      else if (entry.newTag) c.image = `${name}:${entry.newTag}`;
      else c.image = `${name}${current.tag ? `:${current.tag}` : ''}${current.digest ? `@${current.digest}` : ''}`;
    }
  }
}

interface PatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** RFC 6902 add, replace and remove on one resource. */
export function applyJsonPatch(target: unknown, operations: PatchOperation[], where: string): void {
  for (const { op, path, value } of operations) {
    if (!['add', 'replace', 'remove'].includes(op))
      throw new KustomizeError(`${where}: patch op ${op} is not supported`);
    const segments = path.split('/').slice(1).map(unescapePointer);
    const last = segments.pop();
    if (last === undefined) throw new KustomizeError(`${where}: patch path ${JSON.stringify(path)} names no field`);
    let parent = target as Record<string, unknown> | unknown[];
    for (const s of segments) {
      const next = (parent as Record<string, unknown>)[s];
      if (next === null || typeof next !== 'object') throw new KustomizeError(`${where}: ${path} does not exist`);
      parent = next as Record<string, unknown>;
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) {
        throw new KustomizeError(`${where}: ${path} is outside the list`);
      }
      if (op === 'add') parent.splice(index, 0, value);
      else if (index >= parent.length) throw new KustomizeError(`${where}: ${path} does not exist`);
      else if (op === 'replace') parent[index] = value;
      else parent.splice(index, 1);
      continue;
    }
    if (op !== 'add' && !(last in parent)) throw new KustomizeError(`${where}: ${path} does not exist`);
    if (op === 'remove') delete parent[last];
    else parent[last] = value;
  }
}

function applyPatches(resources: Resource[], patches: PatchEntry[], dir: string): void {
  for (const [i, entry] of patches.entries()) {
    const where = `${dir} patches[${i}]`;
    if (!entry.target) throw new KustomizeError(`${where}: only JSON 6902 patches with a target are supported`);
    const text = entry.patch ?? (entry.path ? readFileSync(join(dir, entry.path), 'utf8') : undefined);
    if (text === undefined) throw new KustomizeError(`${where}: neither patch nor path is given`);
    const operations = parseAllDocuments(text)[0]?.toJS() as PatchOperation[] | undefined;
    if (!Array.isArray(operations)) throw new KustomizeError(`${where}: the patch is not a list of operations`);
    const { kind, name } = entry.target;
    const matched = resources.filter((r) => (!kind || r.kind === kind) && (!name || r.metadata.name === name));
    if (matched.length === 0) throw new KustomizeError(`${where}: no resource matches ${kind ?? '*'}/${name ?? '*'}`);
    for (const r of matched) applyJsonPatch(r, operations, `${where} on ${r.kind}/${r.metadata.name}`);
  }
}

/** Renders the kustomization in `dir` into its resources, in kustomize's order of transformers. */
export function renderKustomization(dir: string): Resource[] {
  const file = join(dir, 'kustomization.yaml');
  const k = (parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() ?? {}) as Kustomization;
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) {
    throw new KustomizeError(`${file}: ${unsupported.join(', ')} not supported by this renderer`);
  }
  const resources: Resource[] = [];
  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    resources.push(...(statSync(path).isDirectory() ? renderKustomization(path) : readDocuments(path)));
  }
  const ids = new Set<string>();
  for (const r of resources) {
    const id = `${r.kind}/${r.metadata.namespace ?? ''}/${r.metadata.name}`;
    if (ids.has(id)) throw new KustomizeError(`${file}: ${r.kind} ${r.metadata.name} is declared twice`);
    ids.add(id);
  }
  applyPatches(resources, k.patches ?? [], dir);
  if (k.namespace) {
    for (const r of resources) if (!CLUSTER_SCOPED.has(r.kind)) r.metadata.namespace = k.namespace;
  }
  for (const entry of k.labels ?? []) applyLabels(resources, entry);
  applyImages(resources, k.images ?? []);
  return resources;
}

/** The rendered resources as one multi-document YAML stream, as `kubectl kustomize` prints them. */
export const toYaml = (resources: Resource[]) => resources.map((r) => stringify(r)).join('---\n');
