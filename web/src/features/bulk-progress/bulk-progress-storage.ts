/** The followed order survives a reload of the tab (sessionStorage), not a new tab or a new sign-in. */
const KEY = 'bulkProgressOrder';

export interface FollowedOrder {
  orderId: string;
  startTime: number;
  /** The order's marketplace, when known. */
  source?: string;
}

export function readFollowedOrder(): FollowedOrder | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object') {
      const { orderId, startTime, source } = value as Partial<FollowedOrder>;
      if (typeof orderId === 'string' && orderId && typeof startTime === 'number' && Number.isFinite(startTime)) {
        return { orderId, startTime, ...(typeof source === 'string' ? { source } : {}) };
      }
    }
  } catch {
    // Storage blocked or a damaged value: nothing to restore.
  }
  return null;
}

export function saveFollowedOrder(order: FollowedOrder): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(order));
  } catch {
    // Private mode may refuse storage; the window still works until a reload.
  }
}

export function clearFollowedOrder(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored then.
  }
}
