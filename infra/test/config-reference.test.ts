import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  CONFIG_REFERENCE_PATH,
  DOCUMENTED_PROCESSES,
  renderConfigReference,
  undescribedVariables,
} from '../docs/config-reference';
import { REPO_ROOT } from '../src/paths';
import { PROCESSES } from './deploy/services';

describe('the configuration reference (docs/configuration.md)', () => {
  test('is what infra/docs/config-reference.ts renders from the schemas now (run make docs after changing one)', () => {
    const committed = readFileSync(CONFIG_REFERENCE_PATH, 'utf8');
    expect(committed, 'docs/configuration.md is out of date: run make docs').toBe(renderConfigReference());
  });

  test('every variable of every schema has a description', () => {
    expect(undescribedVariables()).toEqual([]);
  });

  test('covers every deployed process and the launcher', () => {
    const documented = new Set(DOCUMENTED_PROCESSES.map((p) => p.schema));
    const missing = Object.entries(PROCESSES)
      .filter(([, p]) => !documented.has(p.schema))
      .map(([name]) => name);
    expect(missing).toEqual([]);
    expect(DOCUMENTED_PROCESSES.map((p) => p.name)).toContain('launcher');
  });

  test('shows no default that depends on the machine it was rendered on', () => {
    const rendered = renderConfigReference();
    expect(rendered).not.toContain(REPO_ROOT);
    // A core count is a machine's, not the product's: such a default says how it is computed (shownDefault).
    expect(rendered).toMatch(/`LABEL_RENDER_THREADS` \| one per core \|/);
  });
});
