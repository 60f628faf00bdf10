import { randomBytes } from 'node:crypto';
import { hash, type Options, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../domain/ports';

/**
 * argon2id (the library's default algorithm) with its default costs, which
 * match the OWASP recommendation (19 MiB, 2 passes). Tests may pass cheaper
 * options; stored hashes carry their parameters, so verifying still works.
 */
export function createArgon2Hasher(options: Options = {}): PasswordHasher {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    async verify(stored, password) {
      try {
        return await verify(stored, password);
      } catch {
        // A malformed stored hash can never match; refusing beats a 500.
        return false;
      }
    },
    async verifyNothing(password) {
      dummy ??= hash(randomBytes(16).toString('hex'), options);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
