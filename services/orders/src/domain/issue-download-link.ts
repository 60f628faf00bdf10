import { AppError, type AuthContext, isAppError } from '@flatship/kit';
import {
  bulkFileDownloadPath,
  type DownloadTokenReply,
  downloadTargetOf,
  isId,
  labelDownloadPath,
  scanFormDownloadPath,
} from '@flatship/proto';
import { visibleOrder } from './bulk/access';
import type { BulkRepo } from './bulk/ports';
import { PDF_NAME_PATTERN } from './files';
import { MESSAGES } from './messages';
import type { LabelsRepo } from './ports';
import type { ScanFormsRepo } from './scan-forms/ports';
import { canDownloadScanForm } from './scan-forms/scan-forms';

export interface IssueDownloadLinkDeps {
  labels: LabelsRepo;
  bulk: BulkRepo;
  /** SCAN forms' PDFs, when served. */
  scanForms?: ScanFormsRepo;
  /** Signs a download token for the caller and one path (percent-decoded). */
  sign(auth: AuthContext, path: string): { token: string; expiresAt: Date };
}

const notADownload = () => new AppError('VALIDATION_FAILED', 'path is not a download link');

function decoded(path: string): string | null {
  if (path.includes('?') || path.includes('#')) return null;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * POST /api/orders/download-token: a link to one file the caller may read
 * (their own, or anyone's for an admin), with a download token for that file
 * alone in its query. Someone else's file gets the same 404 as a file that does
 * not exist, as the download itself would answer. A bulk order's file may not
 * be generated yet: the link is made all the same, and the download says so.
 */
export async function issueDownloadLink(
  deps: IssueDownloadLinkDeps,
  auth: AuthContext,
  requestedPath: string,
): Promise<DownloadTokenReply> {
  const path = decoded(requestedPath);
  const target = path === null ? null : downloadTargetOf(path);
  if (!target) throw notADownload();
  const notFound = new AppError('FILE_NOT_FOUND', MESSAGES.fileNotFound);
  let link: string;
  if (target.kind === 'label') {
    if (!PDF_NAME_PATTERN.test(target.pdfName)) throw notFound;
    const label = await deps.labels.findByPdfName(target.pdfName);
    if (!label || (label.userId !== auth.userId && auth.role !== 'admin')) throw notFound;
    link = labelDownloadPath(target.pdfName);
  } else if (target.kind === 'scan-form') {
    const { scanForms } = deps;
    if (!scanForms || !isId(target.formId) || !(await canDownloadScanForm({ scanForms }, auth, target.formId))) {
      throw notFound;
    }
    link = scanFormDownloadPath(target.formId);
  } else {
    if (!isId(target.orderId)) throw notFound;
    try {
      await visibleOrder(deps, auth, target.orderId);
    } catch (e) {
      throw isAppError(e) ? notFound : e;
    }
    link = bulkFileDownloadPath(target.type, target.orderId);
  }
  // Signed for the decoded path, which is what the download compares however the link is spelled.
  const { token, expiresAt } = deps.sign(auth, path as string);
  return { token, url: `${link}?token=${token}`, expiresAt: expiresAt.toISOString() };
}
