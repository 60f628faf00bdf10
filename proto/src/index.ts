export * from './auth-api';
export * from './errors';
export * from './events';
export * from './users';
