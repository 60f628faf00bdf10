import type { RootState } from '../../app/store';
import type { ScanForm } from './scan-forms-api';

const none: ScanForm[] = [];
export const selectScanForms = (state: RootState) => state.scanForms?.data ?? null;
export const selectScanFormsError = (state: RootState) => state.scanForms?.error ?? null;
export const selectScanFormsLoading = (state: RootState) => state.scanForms?.isLoading ?? false;
export const selectScanFormBusyOrders = (state: RootState) => state.scanForms?.busyOrders ?? [];
export const selectTodayScanFormBusy = (state: RootState) => state.scanForms?.isTodayBusy ?? false;
/** The forms of one bulk order, oldest first. */
export const formsOfOrder = (forms: readonly ScanForm[] | undefined, orderId: string): ScanForm[] => {
  const mine = (forms ?? none).filter((f) => f.bulkOrderId === orderId);
  return mine.length === 0 ? none : [...mine].reverse();
};
/** Today's forms of single labels, oldest first. */
export const todaysForms = (data: { today: string; forms: readonly ScanForm[] } | null): ScanForm[] =>
  data ? [...data.forms.filter((f) => f.scope === 'day' && f.shipDate === data.today)].reverse() : none;
