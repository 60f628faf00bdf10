/** Spec doc 2 §8 "Addresses": the client's own texts. */
export const ADDRESS_MESSAGES = {
  loadFailed: 'Failed to load addresses',
  addFailed: 'Failed to add address',
  deleteFailed: 'Failed to delete address',
  updateFailed: 'Failed to update address',
  added: 'Address added successfully!',
  deleted: 'Address deleted successfully!',
  updated: 'Address updated successfully!',
  empty: 'No saved addresses found',
} as const;
