import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LauncherConfigSchema } from '../src/config';
import { REPO_ROOT } from '../src/paths';
import { READY_BLOCK_END } from '../src/ready-block';
import { BTCPAY_STORE_ID } from '../src/services';
import type { Secrets } from '../src/state';
import { logTails, settleInvoice } from '../src/testing/start-stack';
import { alivePids, allPids, eventually, type RunFile, readRunFile } from './helpers';

/**
 * `make start` exactly as the README tells a newcomer: default ports, default
 * host, nothing set but a fresh DATA_DIR. Every other test runs the stack on
 * random ports, so this is the only one that would notice a default that does
 * not work (a port fetch refuses, a process that is never ready).
 */

// The launcher's own settings, and the variables it sets for services, must come from their defaults here.
const LAUNCHER_SETTINGS = Object.keys(LauncherConfigSchema.properties);

function newcomerEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (LAUNCHER_SETTINGS.includes(k) || k.startsWith('VITEST') || k === 'NODE_ENV') continue;
    env[k] = v;
  }
  return { ...env, DATA_DIR: dataDir };
}

const json = (token?: string) => ({
  'content-type': 'application/json',
  ...(token ? { token } : {}),
});

function tcpAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('a newcomer runs make start', () => {
  let dir: string;
  let dataDir: string;
  let make: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  let url: string;
  let run: RunFile;

  const failWith = async (why: string) =>
    new Error(`${why}\n--- make start printed ---\n${output}\n${await logTails(dataDir, 15)}`);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flatship-newcomer-'));
    // Running as root, PostgreSQL runs as its own user, which must be able to enter the data directory's parent.
    await chmod(dir, 0o755);
    dataDir = join(dir, 'data');
    make = spawn('make', ['--no-print-directory', 'start'], {
      cwd: REPO_ROOT,
      env: newcomerEnv(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so the test can stop it the way a closing terminal does.
      detached: true,
    });
    make.stdout?.on('data', (d: Buffer) => {
      output += d.toString('utf8');
    });
    make.stderr?.on('data', (d: Buffer) => {
      output += d.toString('utf8');
    });
    exited = new Promise((resolve) => make.once('exit', (code) => resolve(code)));
    const started = Date.now();
    // The ready block (URL, simulator, admin sign-in) ends with its own last line: read until it, whole,
    // however the output arrives, or until the process ends.
    const printedAll = () => output.split('\n').includes(READY_BLOCK_END);
    while (!printedAll()) {
      // A taken default port is named with what holds it; that is the failure to report, not a time-out.
      const taken = output.split('\n').find((line) => / in use by /.test(line));
      if (taken) throw await failWith(`a default port is taken on this machine: ${taken}`);
      if (make.exitCode !== null) throw await failWith(`make start exited with code ${make.exitCode}`);
      if (Date.now() - started > 120_000) throw await failWith('make start did not print its ready block within 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    url = output.match(/running at (\S+)/)![1]!;
    run = await readRunFile(dataDir);
  }, 150_000);

  afterAll(async () => {
    // Only after a failure: whatever is still running is stopped hard so the next run finds its ports free.
    if (make?.pid && make.exitCode === null) {
      try {
        process.kill(-make.pid, 'SIGKILL');
      } catch {}
    }
    if (run) for (const pid of alivePids(allPids(run))) process.kill(pid, 'SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('it prints the documented URL and the simulator on their default ports, and nothing about a taken port', () => {
    expect(url).toBe('http://localhost:8080');
    expect(output).toContain('BTCPay simulator: http://127.0.0.1:4170');
    expect(output).toMatch(/Admin sign-in: admin@flatship\.local \/ [A-Za-z0-9]{20}/);
    expect(output).not.toMatch(/ in use by /);
    expect(run.postgres.port).toBe(4140);
    expect(run.services.gateway?.port).toBe(8080);
  });

  test('the gateway and every process in run.json are ready', async () => {
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    for (const [name, { port }] of Object.entries(run.services)) {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(res.status, `${name} /readyz`).toBe(200);
    }
    expect(await tcpAccepts(run.postgres.port)).toBe(true);
    expect(alivePids(allPids(run))).toHaveLength(allPids(run).length);
  });

  test('through the printed URL a newcomer registers, tops up with the simulator and buys a label', async () => {
    const email = `newcomer-${randomUUID()}@example.com`;
    const password = 'first-day-shipping-9';
    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: json(),
      body: JSON.stringify({ name: 'New Seller', email, password, confirmPassword: password }),
    });
    expect(registered.status).toBeLessThan(300);
    const { token } = (await registered.json()) as { token: string };
    const verified = await fetch(`${url}/api/auth/verify`, { headers: json(token) });
    expect(verified.status).toBe(200);
    const { user } = (await verified.json()) as { user: { _id: string; email: string } };
    expect(user.email).toBe(email);

    // Payments really reaches the simulator on its default port.
    const topUp = await fetch(`${url}/api/payment/top-up/${user._id}`, { headers: json(token) });
    expect(topUp.status, await topUp.clone().text()).toBe(200);
    const invoice = (await topUp.json()) as { id: string; checkoutLink: string };
    expect(invoice.checkoutLink).toMatch(/^http:\/\/127\.0\.0\.1:4170\/i\//);
    const secrets = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as Secrets;
    await settleInvoice(
      { url: 'http://127.0.0.1:4170', apiKey: secrets.btcpayApiKey, storeId: BTCPAY_STORE_ID },
      invoice.id,
      '25.00',
    );
    const balance = await eventually(
      async () => {
        const me = (await (await fetch(`${url}/api/auth/verify`, { headers: json(token) })).json()) as {
          user: { balance: number };
        };
        return me.user.balance > 0 ? me.user.balance : undefined;
      },
      20_000,
      'the deposit to reach the balance',
    );
    expect(balance).toBe(25);

    const services = (await (
      await fetch(`${url}/api/userServices/${user._id}/available`, { headers: json(token) })
    ).json()) as { name: string }[];
    expect(services.length).toBeGreaterThan(0);
    const order = await fetch(`${url}/api/orders/v2`, {
      method: 'POST',
      headers: { ...json(token), 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({
        user_id: user._id,
        service_name: services[0]!.name,
        manifested: false,
        courier: 'usps',
        sender: {
          sender_name: 'New Seller',
          sender_phone: '',
          sender_company: '',
          sender_address1: '1 Main St',
          sender_address2: '',
          sender_city: 'Austin',
          sender_state_province: 'TX',
          sender_zip_postal: '73301',
          sender_country: 'US',
        },
        receiver: {
          receiver_name: 'First Customer',
          receiver_phone: '',
          receiver_company: '',
          receiver_address1: '2 Side Ave',
          receiver_address2: '',
          receiver_city: 'Los Angeles',
          receiver_state_province: 'CA',
          receiver_zip_postal: '90001',
          receiver_country: 'US',
        },
        package: {
          package_length: 10,
          package_width: 8,
          package_height: 4,
          package_weight: 2,
          package_weight_unit: 'LB',
          package_description: 'Books',
          package_reference1: '',
          package_reference2: '',
        },
      }),
    });
    expect(order.status, await order.clone().text()).toBe(201);
    const { data } = (await order.json()) as { data: { pdfName: string } };
    // A download link, as the web app gets one: never the session token in the URL.
    const link = await fetch(`${url}/api/orders/download-token`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ path: `/api/orders/download/v2/${data.pdfName}` }),
    });
    expect(link.status, await link.clone().text()).toBe(200);
    const pdf = await fetch(`${url}${((await link.json()) as { url: string }).url}`);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  test('SIGTERM stops every process and leaves the data directory unlocked', async () => {
    const pids = allPids(await readRunFile(dataDir));
    process.kill(-make.pid!, 'SIGTERM');
    await exited;
    await eventually(
      async () => (alivePids(pids).length === 0 ? true : undefined),
      30_000,
      `every process to exit (still alive: ${alivePids(pids).join(', ')})`,
    );
    await eventually(
      async () =>
        !existsSync(join(dataDir, 'launcher.pid')) && !existsSync(join(dataDir, 'run.json')) ? true : undefined,
      10_000,
      'the launcher lock and run file to be removed',
    );
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});
