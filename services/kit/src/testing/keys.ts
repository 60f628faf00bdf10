import { generateKeyPairSync } from 'node:crypto';

/** A fresh Ed25519 key pair in PEM, as the launcher generates for a new install. */
export function generateTokenKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
