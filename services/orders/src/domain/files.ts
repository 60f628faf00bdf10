/** Where a label's PDF lives in the file store: one folder per user. */
export const labelFileKey = (userId: string, pdfName: string) => `labels/${userId}/${pdfName}`;

/** The only names label files ever get (`<uuid>.pdf`); anything else is refused before touching the store. */
export const PDF_NAME_PATTERN = /^[0-9a-f-]{36}\.pdf$/;
