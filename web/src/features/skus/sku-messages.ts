/** Spec doc 2 §8 "SKU": the client's own texts. */
export const SKU_MESSAGES = {
  fetchFailed: 'Error fetching SKU data',
  uploadFailed: 'Error uploading file',
  addFailed: 'Error adding new SKU',
  uploaded: 'CSV Uploaded Successfully',
  added: 'New SKU Data Added',
  empty: 'No SKU data found',
  noMatch: 'No SKUs match your search',
  notCsv: 'Please choose a .csv file',
  noRows: 'The file has no SKU rows',
} as const;

/** Spec doc 2 §9: toasts for SKU messages close after 3 s. */
export const SKU_TOAST_DURATION = 3_000;
