import type { Sku } from '@flatship/proto';
import type { SkuRecord } from './sku-ports';

/** A saved SKU preset as the SPA knows it (spec doc 2 §3). */
export function toSku(r: SkuRecord): Sku {
  return {
    _id: r.id,
    sku: r.sku,
    maxQty: r.maxQty,
    weight: r.weight,
    length: r.length,
    width: r.width,
    height: r.height,
    description: r.description,
  };
}
