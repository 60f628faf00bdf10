import type { AddSkuReply, SkuDataReply, SkuResult } from '@flatship/proto';
import { getJson, postJson } from '../../app/http';

/** One preset as the page sends it: numbers from the form and the table, the cells' text from a CSV file. */
export interface SkuPresetInput {
  sku: string;
  maxQty: number | string;
  weight: number | string;
  length: number | string;
  width: number | string;
  height: number | string;
  description: string;
}

const id = (value: string) => encodeURIComponent(value);

export const skuApi = {
  list: (userId: string) => getJson<SkuDataReply>(`auth/get-sku/${id(userId)}`),
  /** All rows are added or none; with `upsert` a SKU the user already has takes the new values. */
  add: (userId: string, parsedData: SkuPresetInput[], upsert = false) =>
    postJson<AddSkuReply>(`auth/add-sku/${id(userId)}`, upsert ? { parsedData, upsert } : { parsedData }),
  update: (userId: string, skuId: string, skuData: SkuPresetInput) =>
    postJson<SkuResult>(`auth/update-sku/${id(userId)}/${id(skuId)}`, { skuData }),
  remove: (skuId: string) => postJson<SkuResult>(`auth/delete-sku/${id(skuId)}`, {}),
};
