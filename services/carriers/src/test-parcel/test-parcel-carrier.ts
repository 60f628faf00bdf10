import { refusal } from '../carrier-messages';
import type { CarrierService, LabelRequest, LabelResult } from '../port';
import type { ClosableCarrier } from '../registry';
import { DEFAULT_SANDBOX_CARRIER_BALANCE } from '../sandbox/balance';
import { digitsFromKey } from '../sandbox/key-hash';

/** The smallest carrier there can be: one service, a number from the key, a one-page PDF. Off unless configured. */
export const TEST_PARCEL_SERVICES: readonly CarrierService[] = [
  {
    uid: 'test_parcel_standard',
    name: 'Test Parcel Standard',
    category: 'Test Parcel',
    carrier: 'test-parcel',
    maxWeight: 20,
  },
];

export function createTestParcelCarrier(opts: { balanceCents?: number } = {}): ClosableCarrier {
  const balanceCents = opts.balanceCents ?? DEFAULT_SANDBOX_CARRIER_BALANCE * 100;
  return {
    id: 'test-parcel',
    capabilities: [],
    services: () => TEST_PARCEL_SERVICES.map((s) => ({ ...s })),
    async purchaseLabel(req: LabelRequest): Promise<LabelResult> {
      const service = TEST_PARCEL_SERVICES.find((s) => s.uid === req.serviceUid);
      if (!service) return refusal('SERVICE_UNKNOWN', req.serviceUid, 'test-parcel');
      const weight = req.parcel.weightLb;
      if (weight > service.maxWeight) {
        return refusal('WEIGHT_LIMIT', service.name, service.maxWeight, `${Number(weight.toFixed(2))} lb`);
      }
      for (const [role, address] of [
        ['sender', req.from],
        ['recipient', req.to],
      ] as const) {
        if (!/^\d{5}(-?\d{4})?$/.test(address.zip)) return refusal('ADDRESS_ZIP_INVALID', role, address.zip);
      }
      const unsupported = req.formats?.find((f) => f !== 'pdf-4x6');
      if (unsupported) return refusal('FORMAT_UNSUPPORTED', unsupported, 'Test Parcel');
      // Same key, same number: a retried purchase gives the same label.
      const trackingNumber = `TP${digitsFromKey(req.idempotencyKey, 12)}`;
      // pdfmake loads with the first label, as the sandbox's renderer does.
      const { createPdf, pdfReady } = await import('../label/pdf');
      await pdfReady;
      const pdf = await createPdf({
        pageSize: { width: 288, height: 432 },
        defaultStyle: { font: 'LabelSans', fontSize: 10 },
        content: [
          { text: service.name.toUpperCase(), bold: true, fontSize: 14 },
          { text: `FROM: ${req.from.name}, ${req.from.city} ${req.from.state} ${req.from.zip}`, margin: [0, 8, 0, 0] },
          { text: `SHIP TO: ${req.to.name}, ${req.to.street1}, ${req.to.city} ${req.to.state} ${req.to.zip}` },
          { text: `TRACKING # ${trackingNumber}`, font: 'LabelMono', margin: [0, 8, 0, 0] },
        ],
      }).getBuffer();
      return { ok: true, trackingNumber, serviceUid: service.uid, pdf };
    },
    balance: async () => balanceCents,
    close: async () => {},
  };
}
