// Prepares PostgreSQL for the distributed topology, run once by an operator or a
// deployment job before the services start (idempotent: run it on every deploy):
//
//   DATABASE_ADMIN_URL=postgres://postgres:…@db:5432/flatship \
//   DB_PASSWORD_AUTH=… DB_PASSWORD_ORDERS=… DB_PASSWORD_PAYMENTS=… DB_PASSWORD_PRICING=… DB_PASSWORD_ADMIN=… \
//   node infra/dist/db-setup.js
//
// Each service then connects as its own role: DATABASE_URL=postgres://flatship_orders:…@db:5432/flatship.
import { passwordsFromEnv, SERVICE_DATABASE_ROLES, setupDatabase } from './db-setup';

const EXIT_CONFIG = 78;
const say = (line: string) => process.stdout.write(`${line}\n`);
const complain = (line: string) => process.stderr.write(`db-setup: ${line}\n`);

const adminUrl = process.env.DATABASE_ADMIN_URL;
let passwords: ReturnType<typeof passwordsFromEnv>;
try {
  if (!adminUrl) throw new Error('DATABASE_ADMIN_URL is not set (a privileged user on the product database)');
  new URL(adminUrl);
  passwords = passwordsFromEnv(process.env);
} catch (e) {
  complain((e as Error).message);
  process.exit(EXIT_CONFIG);
}

try {
  const { database } = await setupDatabase({ adminUrl, passwords });
  for (const { role, schema } of Object.values(SERVICE_DATABASE_ROLES)) {
    say(`${database}: role ${role} owns schema ${schema}`);
  }
  say(`${database}: ready (no role can create schemas or read another service's schema)`);
} catch (e) {
  complain(`could not set up the database: ${(e as Error).message}`);
  process.exit(1);
}
