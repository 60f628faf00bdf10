import { parse } from 'yaml';

/** The parts of a compose service these checks read. */
export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  restart?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** The variables a compose file takes from its environment, and which of them it cannot start without. */
export function composeVariables(text: string): { required: Set<string>; optional: Set<string> } {
  const required = new Set<string>();
  const optional = new Set<string>();
  for (const m of text.matchAll(/(?<!\$)\$\{([A-Z_][A-Z0-9_]*)(:?[-?])?/g)) {
    (m[2]?.endsWith('?') ? required : optional).add(m[1] as string);
  }
  for (const name of required) optional.delete(name);
  return { required, optional };
}

/**
 * Compose's variable interpolation ($$, ${VAR}, ${VAR:-default}, ${VAR-default},
 * ${VAR:?error}, ${VAR?error}) over every string in the document, as
 * `docker compose` does before it reads the file.
 */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Z_][A-Z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
      (whole, name: string | undefined, colon: string, op: string, arg: string) => {
        if (whole === '$$') return '$';
        const v = env[name as string];
        const unset = v === undefined || (colon === ':' && v === '');
        if (!unset) return v as string;
        if (op === '?') throw new Error(`${name}: ${arg || 'required variable is not set'}`);
        return op === '-' ? arg : '';
      },
    ) as T;
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  }
  return value;
}

/** Parses a compose file with YAML merge keys, as docker compose reads it. */
export const parseCompose = (text: string): ComposeFile => parse(text, { merge: true }) as ComposeFile;

/** A service's environment as the process sees it: every value a string. */
export const environmentOf = (service: ComposeService): Record<string, string> =>
  Object.fromEntries(
    Object.entries(service.environment ?? {})
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, String(v)]),
  );
