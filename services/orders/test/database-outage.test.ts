import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSandboxCarrier } from '@flatship/carriers';
import { type RestartablePostgres, startRestartablePostgres, waitFor } from '@flatship/kit/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CarrierPort } from '../src/domain/ports';
import { startReconciler } from '../src/jobs/reconciler';
import { type Stack, startStack } from './stack';
import { labelRows, orderBody, postOrder, user } from './support';

// PostgreSQL is killed here, so this file runs its own: the run's shared one serves every other file.
const PRIORITY_CENTS = 895;
let pg: RestartablePostgres;
let s: Stack;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);

// Purchases wait at a gate, so the database can die while a label is in the carrier's hands.
const sandbox = createSandboxCarrier();
let waiting = 0;
let release!: () => void;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});
const carrier: CarrierPort = {
  async purchaseLabel(req) {
    waiting++;
    await gate;
    return sandbox.purchaseLabel(req);
  },
};

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  pg = await startRestartablePostgres();
  s = await startStack({ carrier, adminUrl: pg.adminUrl });
}, 60_000);

afterAll(async () => {
  release();
  await s?.close();
  await pg?.stop();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

test('a label bought while PostgreSQL restarts is delivered once it is back, charged once', async () => {
  // The pending-label reconciler runs throughout: its rounds fail while the database is away, and it goes on afterwards.
  let rounds = 0;
  const roundFailures: unknown[] = [];
  const { labels } = s.domain;
  const reconciler = startReconciler(
    {
      ...s.domain,
      labels: {
        ...labels,
        listUnheldPending: async (...args: Parameters<typeof labels.listUnheldPending>) => {
          const rows = await labels.listUnheldPending(...args);
          rounds++;
          return rows;
        },
      },
      logger: { info() {}, warn() {}, error: (obj) => void roundFailures.push(obj) },
    },
    50,
  );
  const u = user(s);
  await s.setBalance(u.id, 2000);
  const purchase = postOrder(s, u, orderBody(u.id));
  await waitFor('the label at the carrier', () => waiting > 0, 30_000);

  await pg.kill();
  // The carrier has bought the label; recording it meets a database that is not there.
  release();
  await waitFor('a reconciler round to fail', () => roundFailures.length > 0, 15_000);
  await pg.start();
  const roundsAtRestart = rounds;

  const res = await purchase;
  await waitFor('reconciler rounds to succeed again', () => rounds > roundsAtRestart + 1, 15_000);
  await reconciler.stop();
  expect(res.statusCode).toBe(201);
  const { data } = res.json();
  const pdf = await readFile(join(s.filesDir, 'labels', u.id, data.pdfName));
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(await labelRows(s, u.id)).toEqual([
    expect.objectContaining({ id: data.orderId, status: 'completed', pdf_name: data.pdfName, refunded: false }),
  ]);
  expect((await s.ledgerEntries(u.id)).map((e) => [e.kind, Number(e.amount_cents)])).toEqual([
    ['admin_adjustment', 2000],
    ['label_charge', -PRIORITY_CENTS],
  ]);
  expect(await s.balanceCents(u.id)).toBe(2000 - PRIORITY_CENTS);
  expect(crashes).toEqual([]);
}, 60_000);
