import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';

// What a fresh clone installs is what the lockfile says, and the Node versions
// the project claims to run on are ones every installed package accepts.

interface LockEntry {
  version?: string;
  optional?: boolean;
  link?: boolean;
  engines?: { node?: string };
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const rootPackage = readJson<{ engines: { node: string } }>(join(REPO_ROOT, 'package.json'));
const lock = readJson<{ packages: Record<string, LockEntry> }>(join(REPO_ROOT, 'package-lock.json'));
const installed = Object.entries(lock.packages).filter(
  ([path, entry]) => path.includes('node_modules/') && !entry.link,
);

test('the engines field is a range every locked package accepts', () => {
  const claimed = rootPackage.engines.node;
  expect(semver.validRange(claimed)).not.toBeNull();
  const refusing = installed
    .filter(([, entry]) => entry.engines?.node && !semver.subset(claimed, entry.engines.node))
    .map(
      ([path, entry]) =>
        `${path.slice(path.lastIndexOf('node_modules/') + 13)}@${entry.version} wants node ${entry.engines!.node}`,
    );
  expect(refusing, `the project claims node ${claimed}`).toEqual([]);
  // And the Node running this test is one of them.
  expect(semver.satisfies(process.version, claimed)).toBe(true);
});

test('the lockfile has an entry for every platform binary a package may install, so npm ci accepts it anywhere', () => {
  const missing: string[] = [];
  for (const [path, entry] of installed) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      const nested = `${path}/node_modules/${name}`;
      if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(`${name} (wanted by ${path})`);
    }
  }
  expect(missing).toEqual([]);
});

test('every installed package is the version the lockfile names', () => {
  const differing: string[] = [];
  for (const [path, entry] of installed) {
    const manifest = join(REPO_ROOT, path, 'package.json');
    if (!existsSync(manifest)) {
      // Optional packages (other platforms' binaries and what only they need) may rightly be absent.
      if (!entry.optional) differing.push(`${path} is not installed`);
      continue;
    }
    const { version } = readJson<{ version: string }>(manifest);
    if (version !== entry.version) differing.push(`${path} is ${version}, locked ${entry.version}`);
  }
  expect(differing).toEqual([]);
});
