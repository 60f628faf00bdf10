import { createHash, randomUUID } from 'node:crypto';
import type { ScanFormRequest, ScanFormResult } from '@flatship/carriers';
import { AppError, type AuthContext } from '@flatship/kit';
import {
  type CreateScanFormReply,
  DEFAULT_SCAN_FORM_TIME_ZONE,
  isTimeZone,
  SCAN_FORM_MESSAGES,
  type ScanForm,
  type ScanFormsReply,
} from '@flatship/proto';
import { visibleOrder } from '../bulk/access';
import type { BulkRepo } from '../bulk/ports';
import { MESSAGES } from '../messages';
import type { Clock, DomainLogger, FileStore, Transactor } from '../ports';
import type { ShipmentAddress } from '../validate-shipment';
import type { DayBounds, ManifestableLabel, ManifestScope, ScanFormRecord, ScanFormsRepo } from './ports';

// SCAN forms: one PS Form 5630 per carrier, From address and mailing day, for a bulk order's labels or for the day's
// single labels. The carrier makes the form (the sandbox renders its own); we keep its PDF and put each label on it.
//
// The rules hold in the database: a label has one `scan_form_id` column, so it is on one form at most; only labels
// bought, with no refund asked and on no form yet are listed, and the check of migration 0016 refuses a form on a
// pending or failed row. A user's forms are made one request at a time (an advisory lock for the whole request,
// carrier call included), so two requests at once give one form: the second finds the labels on it and answers it.
// The key sent to the carrier is derived from the labels it lists, so asking the carrier again (after a crash between
// its answer and our commit) asks for the same form. Nothing is charged for a form.

export interface ScanFormDeps {
  scanForms: ScanFormsRepo;
  bulk: BulkRepo;
  transactor: Transactor;
  files: FileStore;
  clock: Clock;
  logger: DomainLogger;
  /** The carrier that bought the labels makes their form (routed by `carrierId`). */
  carrier: { createScanForm?(req: ScanFormRequest): Promise<ScanFormResult> };
}

/** How many forms the list shows. */
const LIST_LIMIT = 100;

export const scanFormFileKey = (userId: string, formId: string) => `scan-forms/${userId}/${formId}.pdf`;

/** The time zone asked for, checked: "today" is the customer's day, not the server's. */
export function timeZoneOf(value: string | undefined): string {
  const zone = value ?? DEFAULT_SCAN_FORM_TIME_ZONE;
  if (!isTimeZone(zone)) throw new AppError('VALIDATION_FAILED', SCAN_FORM_MESSAGES.badTimeZone(zone));
  return zone;
}

/** The calendar day (YYYY-MM-DD) it is at `now` in `timeZone`. */
export function dayIn(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `at` (ms since the epoch), in ms. */
function offsetAt(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - (at - (((at % 1000) + 1000) % 1000));
}

/** The first instant of `day` (YYYY-MM-DD) in `timeZone`: its midnight, or when the day begins if a clock change skips midnight. */
function startOf(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const midnight = Date.UTC(y, m - 1, d);
  // The offset at midnight may differ from the offset an hour or two away (a clock change that night): try both.
  const first = midnight - offsetAt(midnight, timeZone);
  const candidates = [first, midnight - offsetAt(first, timeZone)].sort((a, b) => a - b);
  return new Date(candidates.find((t) => dayIn(new Date(t), timeZone) === day) ?? first);
}

/**
 * The instants `day` spans in `timeZone`, worked out here with the zone the runtime knows, so the database is given
 * instants and never reads a zone name itself (it may not know one, or read it otherwise: IST, for one).
 */
export function dayBounds(day: string, timeZone: string): DayBounds {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return { from: startOf(day, timeZone), until: startOf(next, timeZone) };
}

const oneLine = (a: ShipmentAddress) =>
  [a.name, a.company, a.street1, a.street2, `${a.city}, ${a.state} ${a.zip}`].filter(Boolean).join(', ');

export const scanFormView = (f: ScanFormRecord): ScanForm => ({
  _id: f.id,
  scope: f.scope,
  bulkOrderId: f.bulkOrderId,
  formNumber: f.carrierFormId,
  carrierId: f.carrierId,
  fromText: oneLine(f.sender),
  shipDate: f.shipDate,
  labelCount: f.labelCount,
  createdAt: f.createdAt.toISOString(),
});

const norm = (v: string | undefined) => (v ?? '').trim().replace(/\s+/g, ' ').toUpperCase();
/** The From address as a carrier compares it: the same place, however it was typed. */
const senderKey = (a: ShipmentAddress) =>
  [a.name, a.company, a.street1, a.street2, a.city, a.state, a.zip.slice(0, 5)].map(norm).join('|');

/** Labels that may share one carrier form: the same carrier and the same From address (the day is the request's). */
function groupsOf(labels: readonly ManifestableLabel[]): ManifestableLabel[][] {
  const groups = new Map<string, ManifestableLabel[]>();
  for (const l of labels) {
    const key = `${l.carrierId ?? ''}\n${senderKey(l.sender)}`;
    const group = groups.get(key);
    if (group) group.push(l);
    else groups.set(key, [l]);
  }
  return [...groups.values()];
}

/** The carrier's key for a form of these labels on this day: the same labels always ask for the same form. */
export const scanFormKeyOf = (labels: readonly ManifestableLabel[], day: string) =>
  `scan-form:${createHash('sha256')
    .update(
      `${day}\n${labels
        .map((l) => l.id)
        .sort()
        .join(',')}`,
    )
    .digest('hex')
    .slice(0, 40)}`;

async function owner(deps: ScanFormDeps, auth: AuthContext, orderId: string): Promise<string> {
  try {
    return (await visibleOrder(deps, auth, orderId)).userId;
  } catch (e) {
    if (e instanceof AppError) throw new AppError('NOT_FOUND', SCAN_FORM_MESSAGES.orderNotFound);
    throw e;
  }
}

/**
 * What one request made: the forms of its scope afterwards, and what the carrier refused. A form's PDF is written
 * (under the form's own id) before its row, in the transaction that records it; should that transaction fail, the
 * PDFs it wrote are removed again, so no file is left that no form names.
 */
async function makeForms(
  deps: ScanFormDeps,
  scope: ManifestScope,
  day: string,
): Promise<{ forms: ScanFormRecord[]; created: number; labels: number; refused: string[] }> {
  const written: string[] = [];
  try {
    return await recordForms(deps, scope, day, written);
  } catch (err) {
    for (const key of written) {
      await deps.files.remove(key).catch((removeErr: unknown) => {
        deps.logger.error({ err: removeErr, key }, 'PDF of a SCAN form never recorded could not be removed');
      });
    }
    throw err;
  }
}

async function recordForms(
  deps: ScanFormDeps,
  scope: ManifestScope,
  day: string,
  written: string[],
): Promise<{ forms: ScanFormRecord[]; created: number; labels: number; refused: string[] }> {
  return deps.transactor.run(
    async (tx) => {
      const labels = await deps.scanForms.listManifestable(scope, tx);
      const refused: string[] = [];
      let created = 0;
      let listed = 0;
      for (const group of groupsOf(labels)) {
        const first = group[0] as ManifestableLabel;
        const idempotencyKey = scanFormKeyOf(group, day);
        if (!deps.carrier.createScanForm) {
          refused.push(SCAN_FORM_MESSAGES.unsupported);
          continue;
        }
        const result = await deps.carrier.createScanForm({
          idempotencyKey,
          from: first.sender,
          // Noon UTC: the same calendar day wherever the carrier reads it.
          shipDate: new Date(`${day}T12:00:00Z`),
          labels: group.map((l) => ({
            trackingNumber: l.trackingNumber,
            ...(l.carrierRef ? { carrierRef: l.carrierRef } : {}),
          })),
          ...(first.carrierId ? { carrierId: first.carrierId } : {}),
        });
        if (!result.ok) {
          // The carrier's words; nothing is recorded, so the labels stay free for another try.
          deps.logger.warn({ userId: scope.userId, labels: group.length, code: result.code }, 'SCAN form refused');
          refused.push(result.message);
          continue;
        }
        const id = randomUUID();
        const pdfKey = scanFormFileKey(scope.userId, id);
        written.push(pdfKey);
        await deps.files.put(pdfKey, result.pdf);
        await deps.scanForms.insert(
          {
            id,
            userId: scope.userId,
            scope: scope.scope,
            bulkOrderId: scope.scope === 'bulk' ? scope.bulkOrderId : null,
            carrierId: first.carrierId ?? 'default',
            carrierFormId: result.formId || idempotencyKey,
            idempotencyKey,
            sender: first.sender,
            shipDate: day,
            labelCount: group.length,
            pdfKey,
          },
          tx,
        );
        // Under the user's lock nobody else puts labels on forms, so every label listed is put on this one.
        const attached = await deps.scanForms.attach(
          id,
          group.map((l) => l.id),
          tx,
        );
        if (attached !== group.length)
          throw new Error(`SCAN form ${id}: ${attached} of ${group.length} labels put on it`);
        created++;
        listed += group.length;
      }
      return { forms: await deps.scanForms.listOfScope(scope, tx), created, labels: listed, refused };
    },
    { lockKey: `scan-forms:${scope.userId}` },
  );
}

function replyOf(
  made: { forms: ScanFormRecord[]; created: number; labels: number; refused: string[] },
  nothing: string,
): CreateScanFormReply {
  const { forms, created, labels, refused } = made;
  // The carrier made nothing of what was asked: its words, as a refusal (the forms made before stay listed).
  if (created === 0 && refused.length > 0) throw new AppError('ORDERS_SCAN_FORM_REFUSED', refused.join(' '));
  if (forms.length === 0) throw new AppError('ORDERS_SCAN_FORM_NO_LABELS', nothing);
  const head = created > 0 ? SCAN_FORM_MESSAGES.created(created, labels) : SCAN_FORM_MESSAGES.already(forms.length);
  return {
    message: refused.length > 0 ? `${head}${SCAN_FORM_MESSAGES.someRefused(refused)}` : head,
    forms: forms.map(scanFormView),
    created,
    refused,
  };
}

/**
 * POST /api/orders/scan-forms/bulk/{orderId}: forms for the order's labels that are on none yet (one per carrier and
 * From address), and every form of the order. Asked again, the same forms come back. Someone else's order: 404.
 */
export async function createOrderScanForms(
  deps: ScanFormDeps,
  auth: AuthContext,
  orderId: string,
  timeZone?: string,
): Promise<CreateScanFormReply> {
  const zone = timeZoneOf(timeZone);
  const userId = await owner(deps, auth, orderId);
  const day = dayIn(deps.clock.now(), zone);
  const made = await makeForms(deps, { scope: 'bulk', userId, bulkOrderId: orderId }, day);
  return replyOf(made, SCAN_FORM_MESSAGES.nothingInOrder);
}

/**
 * POST /api/orders/scan-forms/today/{userId}: one form (per carrier and From address) for the user's single labels
 * bought today in their time zone and on no form yet, and every form of today's single labels.
 */
export async function createTodayScanForms(
  deps: ScanFormDeps,
  userId: string,
  timeZone?: string,
): Promise<CreateScanFormReply> {
  const zone = timeZoneOf(timeZone);
  const day = dayIn(deps.clock.now(), zone);
  const made = await makeForms(deps, { scope: 'day', userId, day, bounds: dayBounds(day, zone) }, day);
  return replyOf(made, SCAN_FORM_MESSAGES.nothingToday);
}

/** GET /api/orders/scan-forms/{userId}: the user's recent forms and what could still go on one. */
export async function listScanForms(deps: ScanFormDeps, userId: string, timeZone?: string): Promise<ScanFormsReply> {
  const zone = timeZoneOf(timeZone);
  const today = dayIn(deps.clock.now(), zone);
  const [counts, forms] = await Promise.all([
    deps.scanForms.countManifestable(userId, dayBounds(today, zone)),
    deps.scanForms.listForUser(userId, LIST_LIMIT),
  ]);
  return {
    today,
    unmanifestedToday: counts.today,
    unmanifestedByOrder: counts.byOrder,
    forms: forms.map(scanFormView),
  };
}

/** A form's PDF, for its owner or an admin; anyone else gets the 404 of a file that does not exist. */
export async function getScanFormFile(
  deps: Pick<ScanFormDeps, 'scanForms' | 'files'>,
  auth: AuthContext,
  formId: string,
): Promise<{ stream: NodeJS.ReadableStream; size: number; fileName: string }> {
  const notFound = new AppError('FILE_NOT_FOUND', MESSAGES.fileNotFound);
  const form = await deps.scanForms.findById(formId);
  if (!form || (form.userId !== auth.userId && auth.role !== 'admin')) throw notFound;
  const file = await deps.files.open(form.pdfKey);
  if (!file) throw notFound;
  return { ...file, fileName: `scan-form-${form.carrierFormId.replace(/[^A-Za-z0-9_-]/g, '')}.pdf` };
}

/** Whether the caller may have a download link to the form (the same rule as the download). */
export async function canDownloadScanForm(
  deps: Pick<ScanFormDeps, 'scanForms'>,
  auth: AuthContext,
  formId: string,
): Promise<boolean> {
  const form = await deps.scanForms.findById(formId);
  return form !== null && (form.userId === auth.userId || auth.role === 'admin');
}
