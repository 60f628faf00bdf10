import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

// The web app imports values from these modules. A module that builds schemas at load time keeps the whole schema
// library in the browser's main chunk, so they, and whatever they import, stay free of it.
const BROWSER_MODULES = ['limits', 'money', 'numbers', 'realtime', 'text', 'us-states'];

function importsOf(module: string): string[] {
  const source = readFileSync(new URL(`../src/${module}.ts`, import.meta.url), 'utf8');
  return [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1] as string);
}

describe('modules the browser imports', () => {
  test.each(BROWSER_MODULES)('%s does not load the schema library', (module) => {
    const seen = new Set<string>();
    const pending = [module];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      if (seen.has(current)) continue;
      seen.add(current);
      for (const specifier of importsOf(current)) {
        expect(specifier.startsWith('./'), `${current}.ts imports ${specifier}`).toBe(true);
        pending.push(specifier.slice(2));
      }
    }
  });
});
