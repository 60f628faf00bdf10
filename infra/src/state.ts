import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Generated once per DATA_DIR; reusing them keeps tokens and the database valid across restarts. */
export interface Secrets {
  jwtPublicKey: string;
  jwtPrivateKey: string;
  internalSecret: string;
  pgPassword: string;
  /** Greenfield API key of the local BTCPay simulator, and the key its webhooks are signed with. */
  btcpayApiKey: string;
  btcpayWebhookSecret: string;
}

const CORE_SECRETS = ['jwtPublicKey', 'jwtPrivateKey', 'internalSecret', 'pgPassword'] as const;

const generateBtcpaySecrets = () => ({
  // 40 hex characters, the shape of a real Greenfield API key.
  btcpayApiKey: randomBytes(20).toString('hex'),
  btcpayWebhookSecret: randomBytes(32).toString('base64url'),
});

/** Facts the launcher remembers between runs. */
export interface LauncherState {
  pgPort?: number;
  /** Present once an admin account is known to exist, so a generated password is never generated or shown twice. */
  admin?: { email: string; recordedAt: string };
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${path} is unreadable (${(e as Error).message}); fix or remove it`);
  }
}

/** Writes through a temporary file so a crash never leaves a half-written secret behind. */
async function writePrivateJson(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, path);
}

export function generateSecrets(): Secrets {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    internalSecret: randomBytes(32).toString('base64url'),
    pgPassword: randomBytes(24).toString('base64url'),
    ...generateBtcpaySecrets(),
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * 20 characters from [A-Za-z0-9] (~119 bits): nothing a shell or a URL would
 * mangle, and upper case, lower case and digits are all present so any
 * reasonable password policy accepts it.
 */
export function generatePassword(length = 20): string {
  for (;;) {
    let out = '';
    while (out.length < length) {
      for (const byte of randomBytes(length * 2)) {
        // Rejection sampling keeps every character equally likely.
        if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
      }
    }
    if (/[A-Z]/.test(out) && /[a-z]/.test(out) && /[0-9]/.test(out)) return out;
  }
}

export function createStateStore(dataDir: string) {
  const secretsPath = join(dataDir, 'secrets.json');
  const statePath = join(dataDir, 'state.json');
  return {
    async loadOrCreateSecrets(): Promise<{ secrets: Secrets; created: boolean }> {
      await mkdir(dataDir, { recursive: true });
      const existing = await readJson<Partial<Secrets>>(secretsPath);
      if (existing && CORE_SECRETS.every((name) => existing[name])) {
        if (existing.btcpayApiKey && existing.btcpayWebhookSecret)
          return { secrets: existing as Secrets, created: false };
        // A data directory from before the BTCPay simulator keeps its keys and database password and gains the rest.
        const fresh = generateBtcpaySecrets();
        const upgraded = {
          ...existing,
          btcpayApiKey: existing.btcpayApiKey || fresh.btcpayApiKey,
          btcpayWebhookSecret: existing.btcpayWebhookSecret || fresh.btcpayWebhookSecret,
        } as Secrets;
        await writePrivateJson(secretsPath, upgraded);
        return { secrets: upgraded, created: false };
      }
      const secrets = generateSecrets();
      await writePrivateJson(secretsPath, secrets);
      return { secrets, created: true };
    },
    async readState(): Promise<LauncherState> {
      return (await readJson<LauncherState>(statePath)) ?? {};
    },
    async updateState(patch: Partial<LauncherState>): Promise<LauncherState> {
      const next = { ...(await this.readState()), ...patch };
      await writePrivateJson(statePath, next);
      return next;
    },
  };
}

export type StateStore = ReturnType<typeof createStateStore>;
