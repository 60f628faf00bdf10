import { describe, expect, test } from 'vitest';
import { billedWeight, priceShipment } from '../src/domain/billing';
import { createServiceMatcher } from '../src/domain/effective-services';
import type { ServiceRecord } from '../src/domain/ports';

const priority: ServiceRecord = {
  id: 'a',
  uid: 'usps_priority_mail',
  name: 'USPS Priority Mail',
  category: 'USPS',
  maxWeight: 70,
  enabled: true,
  status: 'active',
  prices: [
    { fromWeight: 1, toWeight: 2, priceCents: 700 },
    { fromWeight: 2, toWeight: 70, priceCents: 895 },
  ],
};

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    const err = e as { code: string; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error('expected a refusal');
}

describe('the billed weight', () => {
  test.each([
    [0, 1],
    ['', 1],
    ['   ', 1],
    [null, 1],
    [undefined, 1],
    [Number.NaN, 1],
    ['abc', 1],
    [-3, 1],
    [0.2, 1],
    [1, 1],
    [1.2, 2],
    ['1.2', 2],
    [2, 2],
    [69.01, 70],
    [70, 70],
  ])('of %j is %i lb', (raw, expected) => {
    expect(billedWeight(raw)).toBe(expected);
  });
});

describe('pricing one shipment', () => {
  test('bills at the range holding the rounded-up weight', () => {
    expect(priceShipment(priority, 1)).toEqual({ billedWeight: 1, priceCents: 700 });
    expect(priceShipment(priority, 1.2)).toEqual({ billedWeight: 2, priceCents: 700 });
    expect(priceShipment(priority, 2.1)).toEqual({ billedWeight: 3, priceCents: 895 });
    expect(priceShipment(priority, '')).toEqual({ billedWeight: 1, priceCents: 700 });
    expect(priceShipment(priority, 70)).toEqual({ billedWeight: 70, priceCents: 895 });
  });

  test('refuses a weight over the service maximum, naming weight, maximum and service', () => {
    expect(refusal(() => priceShipment(priority, 71))).toEqual({
      code: 'PRICING_WEIGHT_OVER_MAX',
      message: 'Weight 71 lb is over the 70 lb maximum for USPS Priority Mail',
    });
    expect(refusal(() => priceShipment(priority, 70.5)).message).toBe(
      'Weight 70.5 lb is over the 70 lb maximum for USPS Priority Mail',
    );
  });
});

describe('finding the service a shipment names', () => {
  const ground: ServiceRecord = { ...priority, id: 'b', uid: 'usps_ground_advantage', name: 'USPS Ground Advantage' };
  const express: ServiceRecord = {
    ...priority,
    id: 'c',
    uid: 'usps_priority_mail_express',
    name: 'USPS Priority Mail Express',
    enabled: false,
  };
  const gone: ServiceRecord = {
    ...priority,
    id: 'd',
    uid: 'usps_media_mail',
    name: 'USPS Media Mail',
    status: 'inactive',
  };
  const match = createServiceMatcher([priority, ground, express, gone]);

  test('matches the name ignoring case and surrounding spaces', () => {
    expect(match('  usps priority MAIL ').uid).toBe('usps_priority_mail');
  });
  test('matches the uid', () => {
    expect(match('usps_ground_advantage').name).toBe('USPS Ground Advantage');
  });
  test('refuses a disabled service, naming it', () => {
    expect(refusal(() => match('USPS Priority Mail Express'))).toEqual({
      code: 'PRICING_SERVICE_DISABLED',
      message: 'USPS Priority Mail Express is not available on your account',
    });
  });
  test('refuses an unknown service, quoting the name given', () => {
    expect(refusal(() => match('FedEx Overnight'))).toEqual({
      code: 'PRICING_SERVICE_UNKNOWN',
      message: 'Service "FedEx Overnight" is not available',
    });
  });
  test('treats a service the carrier no longer offers as unknown', () => {
    expect(refusal(() => match('USPS Media Mail')).code).toBe('PRICING_SERVICE_UNKNOWN');
  });
  test('asks for a service when none is named', () => {
    expect(refusal(() => match('  '))).toEqual({ code: 'PRICING_SERVICE_UNKNOWN', message: 'Please select a service' });
  });
});
