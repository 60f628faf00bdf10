export * from './database';
export * from './embedded-pg';
export * from './keys';
