/** Serialises initialisation and edits of one user's services. */
export const userServicesLock = (userId: string) => `pricing:user:${userId}`;
