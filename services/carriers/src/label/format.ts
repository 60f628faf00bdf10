/** '2 LB 4 OZ', '3 LBS', '12 OZ': how postage indicia state the weight. */
export function formatWeight(weightLb: number): string {
  const totalOz = Math.max(1, Math.round(weightLb * 16));
  const lb = Math.floor(totalOz / 16);
  const oz = totalOz % 16;
  if (lb === 0) return `${oz} OZ`;
  const pounds = `${lb} ${lb === 1 ? 'LB' : 'LBS'}`;
  return oz === 0 ? pounds : `${pounds} ${oz} OZ`;
}

/** MM/DD/YYYY in UTC, so a label rendered twice for the same ship date prints the same date on any server. */
export function formatShipDate(date: Date): string {
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(date.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${date.getUTCFullYear()}`;
}

export function zip5(zip: string): string {
  return zip.replace(/\D/g, '').slice(0, 5);
}

/** ZIP+4 printed as 12345-6789, a plain ZIP as given. */
export function formatZip(zip: string): string {
  const digits = zip.replace(/\D/g, '');
  return digits.length === 9 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}
