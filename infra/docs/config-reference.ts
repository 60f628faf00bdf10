/**
 * The configuration reference (docs/configuration.md), rendered from the configuration schemas the processes load
 * at start: each variable, its default and its description come from the schema, never from a second copy.
 *
 *   node --import tsx infra/docs/config-reference.ts            writes docs/configuration.md (`make docs`)
 *   node --import tsx infra/docs/config-reference.ts --check    exits 1 when the committed document is out of date
 *
 * infra/test/config-reference.test.ts fails while the committed document differs from what this renders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdminConfigSchema } from '@flatship/admin';
import { AuthConfigSchema } from '@flatship/auth';
import { GatewayConfigSchema } from '@flatship/gateway';
import { BaseConfig } from '@flatship/kit';
import { LabelWorkerConfigSchema } from '@flatship/label-worker';
import { OrdersConfigSchema } from '@flatship/orders';
import { PaymentsConfigSchema } from '@flatship/payments';
import { PricingConfigSchema } from '@flatship/services-pricing';
import { type TObject, Type } from 'typebox';
import { BtcpayConfigSchema } from '../src/btcpay/config';
import { LauncherConfigSchema } from '../src/config';
import { REPO_ROOT } from '../src/paths';

export const CONFIG_REFERENCE_PATH = join(REPO_ROOT, 'docs', 'configuration.md');

export interface DocumentedProcess {
  /** Heading and anchor of its section. */
  name: string;
  /** What it is, one sentence (Markdown). */
  summary: string;
  /** Where its schema is declared, from the repository root. */
  source: string;
  schema: TObject;
}

/** Every process that loads a configuration schema, in the order the document lists them. */
export const DOCUMENTED_PROCESSES: DocumentedProcess[] = [
  {
    name: 'launcher',
    summary:
      'What `make start` runs: it reads these itself, then starts every other process with the variables it decides for them. See [infra/README.md](../infra/README.md).',
    source: 'infra/src/config.ts',
    schema: LauncherConfigSchema,
  },
  {
    name: 'gateway',
    summary: 'The only public entry point. See [gateway/README.md](../gateway/README.md).',
    source: 'gateway/src/config.ts',
    schema: GatewayConfigSchema,
  },
  {
    name: 'auth',
    summary: 'Accounts, sign-in and tokens. See [services/auth/README.md](../services/auth/README.md).',
    source: 'services/auth/src/config.ts',
    schema: AuthConfigSchema,
  },
  {
    name: 'orders',
    summary: 'Single labels and bulk orders. See [services/orders/README.md](../services/orders/README.md).',
    source: 'services/orders/src/config.ts',
    schema: OrdersConfigSchema,
  },
  {
    name: 'payments',
    summary:
      'Balances, the ledger and BTCPay deposits. See [services/payments/README.md](../services/payments/README.md).',
    source: 'services/payments/src/config.ts',
    schema: PaymentsConfigSchema,
  },
  {
    name: 'services-pricing',
    summary:
      'Carrier services, price lists and quotes. See [services/services-pricing/README.md](../services/services-pricing/README.md).',
    source: 'services/services-pricing/src/config.ts',
    schema: PricingConfigSchema,
  },
  {
    name: 'admin',
    summary:
      'User management, rankings and the dashboard. See [services/admin/README.md](../services/admin/README.md).',
    source: 'services/admin/src/config.ts',
    schema: AdminConfigSchema,
  },
  {
    name: 'label-worker',
    summary:
      'Buys bulk labels from the queue. See [services/label-worker/README.md](../services/label-worker/README.md).',
    source: 'services/label-worker/src/config.ts',
    schema: LabelWorkerConfigSchema,
  },
  {
    name: 'btcpay-simulator',
    summary:
      'The local stand-in for BTCPay Server that `make start` runs; the launcher sets every variable. See [infra/src/btcpay/README.md](../infra/src/btcpay/README.md).',
    source: 'infra/src/btcpay/config.ts',
    schema: BtcpayConfigSchema,
  },
];

/** A property of a configuration schema, as far as the reference reads it. */
interface PropertySchema {
  type?: string;
  description?: string;
  default?: unknown;
  /** Markdown shown as the default where the schema's own cannot say it (see kit's `BaseConfig`). */
  shownDefault?: string;
  anyOf?: { const?: unknown }[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
}

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function defaultOf(p: PropertySchema, required: boolean): string {
  if (p.shownDefault !== undefined) return p.shownDefault;
  if (p.default !== undefined) return code(String(p.default));
  return required ? '**required**' : 'unset';
}

const URL_SCHEMES: [RegExp, string][] = [
  [/^\^https\?:\/\//, 'http(s) URL'],
  [/^\^postgres\(ql\)\?:\/\//, 'postgres:// URL'],
  [/^\^smtps\?:\/\//, 'smtp(s):// URL'],
];

function acceptsOf(p: PropertySchema): string {
  if (p.anyOf?.every((option) => option.const !== undefined)) {
    return p.anyOf.map((option) => code(String(option.const))).join(', ');
  }
  if (p.type === 'boolean') return `${code('true')}, ${code('false')}`;
  if (p.type === 'integer' || p.type === 'number') {
    const kind = p.type === 'integer' ? 'integer' : 'number';
    if (p.minimum !== undefined && p.maximum !== undefined) return `${kind} ${p.minimum}–${p.maximum}`;
    if (p.minimum !== undefined) return `${kind} ≥ ${p.minimum}`;
    if (p.maximum !== undefined) return `${kind} ≤ ${p.maximum}`;
    return kind;
  }
  const scheme = URL_SCHEMES.find(([prefix]) => p.pattern !== undefined && prefix.test(p.pattern));
  if (scheme) return scheme[1];
  if (p.minLength !== undefined && p.minLength > 1) return `text, ${p.minLength}+ characters`;
  return 'text';
}

/** The variables of a schema whose property is not the shared one, as a Markdown table. */
function table(schema: TObject, keys: string[]): string[] {
  const required = new Set(schema.required ?? []);
  const rows = keys.map((key) => {
    const p = schema.properties[key] as PropertySchema;
    return `| ${code(key)} | ${cell(defaultOf(p, required.has(key)))} | ${cell(acceptsOf(p))} | ${cell(p.description ?? '')} |`;
  });
  return ['| variable | default | accepts | description |', '| --- | --- | --- | --- |', ...rows];
}

/** Renders docs/configuration.md from the schemas. */
export function renderConfigReference(): string {
  const shared: Record<string, unknown> = BaseConfig;
  const sharedSchema = Type.Object(BaseConfig);
  const sharedKeys = Object.keys(shared);

  const lines: string[] = [
    '# Configuration reference',
    '',
    '<!-- Generated by `make docs` (infra/docs/config-reference.ts) from the configuration schemas. Do not edit by',
    "     hand: change the variable's description or default in its schema, then run `make docs`. -->",
    '',
    'Every process reads its environment once, at start-up, and checks it against its configuration schema: a',
    'missing or bad value stops it with a message naming the variable (without repeating the value of a secret, and',
    'showing URLs without their password). An empty variable counts as unset. This document is rendered from those',
    'schemas, so it lists exactly what each process reads.',
    '',
    'With `make start`, set a variable on the command line or in the environment (`make start PORT=9000`). The',
    "launcher's own variables are in [launcher](#launcher); it sets each service's database URL, token keys, internal",
    'secret, ports, upstream URLs, files directory and first admin itself, and passes every other variable of its',
    'environment through to every service, so a service setting such as `JWT_TTL=12h make start` works too.',
    '',
    'Where each variable comes from when the services are deployed (Docker Compose, Kubernetes ConfigMaps and the',
    '`flatship` Secret) is in [infra/k8s/README.md](../infra/k8s/README.md#variables). The one-off jobs of that',
    'topology read a few variables of their own, listed with them: the database setup in',
    '[infra/README.md](../infra/README.md), the topic creation in',
    '[services/kit/src/bus/README.md](../services/kit/src/bus/README.md#kafka-adapter-distributed-topology).',
    '',
    'Columns: the default (**required**: no default, the start stops without it; unset: optional, nothing happens',
    'without it), what the value may be, and what it does.',
    '',
    '- [Shared by every service](#shared-by-every-service)',
    ...DOCUMENTED_PROCESSES.map((p) => `- [${p.name}](#${p.name})`),
    '',
    '## Shared by every service',
    '',
    'The gateway, auth, orders, payments, services-pricing, admin and label-worker read these',
    `(\`services/kit/src/config.ts\`, \`services/kit/src/bus/config.ts\`); each also has a \`PORT\`, listed with it.`,
    'A service that declares one of them its own way lists it again in its section.',
    '',
    ...table(sharedSchema, sharedKeys),
  ];
  for (const process of DOCUMENTED_PROCESSES) {
    const keys = Object.keys(process.schema.properties);
    const own = keys.filter((key) => process.schema.properties[key] !== shared[key]);
    const readsShared = own.length < keys.length;
    lines.push(
      '',
      `## ${process.name}`,
      '',
      `${process.summary} Schema: \`${process.source}\`.`,
      ...(readsShared ? ['', 'Besides the [shared variables](#shared-by-every-service):'] : []),
      '',
      ...table(process.schema, own),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Every variable of every documented schema that has no description, as `process: VARIABLE`. */
export function undescribedVariables(): string[] {
  return DOCUMENTED_PROCESSES.flatMap((process) =>
    Object.entries(process.schema.properties)
      .filter(([, p]) => !(p as PropertySchema).description?.trim())
      .map(([key]) => `${process.name}: ${key}`),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rendered = renderConfigReference();
  if (process.argv.includes('--check')) {
    const committed = readFileSync(CONFIG_REFERENCE_PATH, 'utf8');
    if (committed !== rendered) {
      process.stderr.write('docs/configuration.md is out of date: run make docs\n');
      process.exit(1);
    }
  } else {
    writeFileSync(CONFIG_REFERENCE_PATH, rendered);
    process.stdout.write(`wrote ${CONFIG_REFERENCE_PATH}\n`);
  }
}
