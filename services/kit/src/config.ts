import { type Static, type TObject, Type } from 'typebox';
import { Value } from 'typebox/value';
import { BusConfig } from './bus/config';
import { ConfigError } from './config-error';
import { DEFAULT_POOL_IDLE_MS } from './db-basics';

export { ConfigError };

/**
 * Reads and validates configuration once, at start-up. Every bad or missing
 * variable is named in the error, so a misconfigured process stops with a
 * message a person can act on. Nothing else in a service reads process.env.
 */
export function loadConfig<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined> = process.env,
  /** Rules across variables the schema cannot state (a carrier's account when it is enabled), each problem naming its variable. */
  check?: (config: Static<T>, env: Record<string, string | undefined>) => string[],
): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const withDefaults = Value.Default(schema, raw);
  const converted = Value.Convert(schema, withDefaults);
  if (Value.Check(schema, converted)) {
    const problems = check?.(converted as Static<T>, env) ?? [];
    if (problems.length > 0) throw new ConfigError(problems);
    return converted as Static<T>;
  }
  const problems: string[] = [];
  for (const err of Value.Errors(schema, converted)) {
    const e = err as { instancePath: string; keyword: string; message: string; params: Record<string, unknown> };
    if (e.keyword === 'required') {
      const missing = (e.params.requiredProperties as string[] | undefined) ?? [];
      for (const name of missing) problems.push(`${name} is required but not set`);
      continue;
    }
    const name = e.instancePath.replace(/^\//, '');
    const desc = (schema.properties[name] as { description?: string } | undefined)?.description;
    problems.push(`${shownValue(name, env[name])} is invalid: ${e.message}${desc ? ` (${desc})` : ''}`);
  }
  throw new ConfigError([...new Set(problems)]);
}

// Variables whose value is a secret: a start-up error names them but never repeats what they hold.
const SECRET_VARIABLE = /SECRET|PASSWORD|_KEY$|_TOKEN$/;

/** `NAME="value"` for a problem report, without a secret's value or the password of a URL. */
function shownValue(name: string, value: string | undefined): string {
  if (SECRET_VARIABLE.test(name)) return `${name} (value not shown)`;
  return `${name}=${JSON.stringify(value?.replace(/\/\/[^/@\s]*@/, '//[redacted]@'))}`;
}

/**
 * Settings every service shares.
 *
 * Every variable of a configuration schema has a `description`, and its `default` when it has one: the
 * configuration reference (docs/configuration.md, `make docs`) is rendered from the schemas. Where the schema's own
 * default cannot say it (it depends on the machine, or the code applies one when the variable is unset), the
 * keyword `shownDefault` says what the reference shows instead.
 */
export const BaseConfig = {
  HOST: Type.String({ default: '127.0.0.1', description: 'interface to listen on' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level' },
  ),
  DATABASE_URL: Type.String({
    pattern: '^postgres(ql)?://',
    description: 'PostgreSQL connection URL; each service keeps its tables in a schema of its own',
  }),
  JWT_PUBLIC_KEY: Type.String({
    minLength: 40,
    description: 'Ed25519 public key (PEM) that verifies access tokens',
  }),
  INTERNAL_SECRET: Type.String({
    minLength: 16,
    description: 'shared secret for /internal calls between services; download-link tokens are keyed from it',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 10000,
    description: 'grace period after SIGTERM: past it the process exits whatever is still running',
  }),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    minimum: 0,
    default: 0,
    description:
      'after SIGTERM, how long /readyz answers 503 while requests are still served, so load balancers stop sending first',
  }),
  DB_POOL_MAX: Type.Optional(
    Type.Integer({
      minimum: 1,
      shownDefault: "the service's own: 10; admin 6; label-worker `LABEL_WORKER_CONCURRENCY` + 4; gateway 4",
      description:
        'database connections the main pool may hold at once; the event bus and the outbox relay share one more for LISTEN, and orders its purchase locks (`PURCHASE_LOCK_CONNECTIONS`)',
    }),
  ),
  DB_POOL_IDLE_MS: Type.Integer({
    minimum: 100,
    default: DEFAULT_POOL_IDLE_MS,
    description:
      'how long a pooled database connection may stay unused before it is closed: a quiet process keeps only what its polling uses',
  }),
  ...BusConfig,
};

export const portConfig = (defaultPort: number) =>
  Type.Integer({ minimum: 0, maximum: 65535, default: defaultPort, description: 'TCP port to listen on' });
