import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const globalSetup = join(repoRoot, 'services/kit/src/testing/global-setup.ts');

// `make test` must fail when a test fails. The run's global setup starts
// embedded PostgreSQL, whose exit hooks once turned every failed run into exit 0.
test('a failing test fails the run even with the embedded PostgreSQL global setup', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'flatship-exit-'));
  try {
    await writeFile(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { globalSetup: [${JSON.stringify(globalSetup)}], include: ['*.test.mjs'] } };\n`,
    );
    await writeFile(
      join(dir, 'fails.test.mjs'),
      "import { expect, test } from 'vitest';\ntest('fails', () => expect(1).toBe(2));\n",
    );
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.stdout + run.stderr).toContain('1 failed');
    expect(run.status).toBe(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
