import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../src/paths';

// `make typecheck` checks every workspace but the web app as one program (the root tsconfig.json) and the web app
// on its own. That holds only while the root program covers what each workspace's own tsconfig.json covers and
// every one of them compiles with the same options.

interface TsConfig {
  extends?: string;
  compilerOptions?: Record<string, unknown>;
  include?: string[];
}

/** tsconfig files are JSON with comments; ours have them only on lines of their own. */
const readTsConfig = (path: string): TsConfig =>
  JSON.parse(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n'),
  ) as TsConfig;

function workspaces(): string[] {
  const { workspaces: globs } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  return globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(REPO_ROOT, glob.slice(0, -2))).map((dir) => `${glob.slice(0, -2)}/${dir}`)
      : [glob],
  );
}

/** Whether a root include pattern (a path, or one with `*` for a single folder name) names `path`. */
const covers = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`).test(path);

test('the root program includes every folder each workspace but the web app type-checks, with the same options', () => {
  const root = readTsConfig(join(REPO_ROOT, 'tsconfig.json'));
  expect(root.extends).toBe('./tsconfig.base.json');
  expect(root.compilerOptions).toBeUndefined();

  const checked = workspaces().filter((dir) => dir !== 'web' && existsSync(join(REPO_ROOT, dir, 'tsconfig.json')));
  expect(checked).toEqual(expect.arrayContaining(['proto', 'gateway', 'infra', 'services/kit', 'services/orders']));
  const missing: string[] = [];
  for (const dir of checked) {
    const own = readTsConfig(join(REPO_ROOT, dir, 'tsconfig.json'));
    expect(own.extends, dir).toMatch(/^(\.\.\/)+tsconfig\.base\.json$/);
    // Options of its own would make the one program check it differently from its editor.
    expect(own.compilerOptions, dir).toBeUndefined();
    for (const folder of own.include ?? []) {
      const path = `${dir}/${folder}`;
      if (!root.include?.some((pattern) => covers(pattern, path))) missing.push(path);
    }
  }
  expect(missing, 'folders a workspace checks that the root tsconfig.json does not include').toEqual([]);
});
