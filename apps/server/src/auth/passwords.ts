import { hash, verify } from '@node-rs/argon2';
import { ApiError } from '../errors.js';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes).
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// Verified when no account matches, so that a wrong email costs as long as a wrong password.
const dummyHash = hash('not-a-real-password', options);

export async function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  try {
    return await verify(storedHash ?? (await dummyHash), password);
  } catch {
    return false;
  }
}

const common = new Set([
  'password',
  'password1',
  '12345678',
  '123456789',
  'qwertyui',
  'qwerty123',
  'letmein1',
  'welcome1',
  'iloveyou',
  'admin123',
  'fieldassist',
]);

/**
 * At least 8 characters (at most 256), not a well-known password, and at least two kinds of
 * character among letters, digits and symbols.
 */
export function checkPasswordStrength(password: string): void {
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d]/].filter((re) => re.test(password)).length;
  if (password.length < 8 || password.length > 256 || common.has(password.toLowerCase()) || kinds < 2) {
    throw new ApiError('WEAK_PASSWORD', 'Password is too weak. Please choose a stronger password.');
  }
}
