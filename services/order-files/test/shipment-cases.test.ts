import { describe, expect, it } from 'vitest';
import { bulkRowProblems, fromBulkOrderItem, fromOrderCreateBody } from '../src/rows';
import { CASE_CARRIERS, caseBulkItem, caseOrderBody, caseRow, SHIPMENT_CASES } from './shipment-cases';

// The browser's half of the shared table; services/orders/test/shipment-cases.test.ts runs the
// same cases through the server.
describe('one shipment, one set of rules (browser side)', () => {
  it.each(SHIPMENT_CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    expect(bulkRowProblems(caseRow(c.row), { carriers: CASE_CARRIERS })).toEqual(c.problems);
  });

  it.each(SHIPMENT_CASES.map((c) => [c.name, c] as const))('%s: the same once sent and read back', (_, c) => {
    const rules = { carriers: CASE_CARRIERS, serviceMissingMessage: 'unused' };
    const messages = c.problems.map((p) => p.message);
    expect(bulkRowProblems(fromBulkOrderItem(caseBulkItem(c), 0), rules).map((p) => p.message)).toEqual(messages);
    expect(bulkRowProblems(fromOrderCreateBody(caseOrderBody(c, 'u')), rules).map((p) => p.message)).toEqual(messages);
  });
});
