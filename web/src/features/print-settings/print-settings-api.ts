import { type PrintFormat, type PrintSettings, type PrintSettingsReply, printSettingsPath } from '@flatship/proto';
import { getJson, putJson } from '../../app/http';

// The one ky instance takes paths without the leading /api/.
const pathOf = (userId: string) => printSettingsPath(userId).replace(/^\/api\//, '');

export const printSettingsApi = {
  get: (userId: string) => getJson<PrintSettings>(pathOf(userId)),
  save: (userId: string, labelFormat: PrintFormat) => putJson<PrintSettingsReply>(pathOf(userId), { labelFormat }),
};
