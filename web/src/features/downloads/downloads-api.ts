import type { DownloadTokenReply } from '@flatship/proto';
import { postJson } from '../../app/http';

export const downloadsApi = {
  /**
   * POST /api/orders/download-token: a link to one file, with a token good for that file and a few
   * minutes only. Asked for right before a file opens, so the session token never goes in a URL.
   */
  link: (path: string) => postJson<DownloadTokenReply>('orders/download-token', { path }),
};
