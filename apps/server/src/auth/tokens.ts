import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { ApiError } from '../errors.js';

export const ACCESS_TOKEN_SECONDS = 900;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
const ISSUER = 'fieldassist';

export interface AccessClaims {
  /** The account id. */
  sub: string;
  email: string;
  /** The refresh-token family (the session) this access token belongs to. */
  sid: string;
}

/** Signs and checks access tokens: HS256 JWTs, the algorithm pinned, for one project. */
export function createTokenSigner(secret: string, projectId: string) {
  const key = createHash('sha256').update(`access-token:${secret}`).digest();
  const sealKey = createHash('sha256').update(`seal:${secret}`).digest();
  return {
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ email: claims.email, sid: claims.sid, typ: 'access' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(projectId)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
        .setJti(randomBytes(8).toString('hex'))
        .sign(key);
    },

    /** Throws TOKEN_EXPIRED or INVALID_TOKEN (both 401, so clients refresh and retry). */
    async verify(token: string): Promise<AccessClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: projectId });
        if (
          payload.typ !== 'access' ||
          typeof payload.sub !== 'string' ||
          typeof payload.email !== 'string' ||
          typeof payload.sid !== 'string'
        ) {
          throw new ApiError('INVALID_TOKEN', 'Invalid or expired token');
        }
        return { sub: payload.sub, email: payload.email, sid: payload.sid };
      } catch (error) {
        if (error instanceof errors.JWTExpired)
          throw new ApiError('TOKEN_EXPIRED', 'Session expired. Please sign in again.');
        if (error instanceof ApiError) throw error;
        throw new ApiError('INVALID_TOKEN', 'Invalid or expired token');
      }
    },

    /** Encrypts a value kept in the database (the successor pair of a rotated refresh token). */
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },

    unseal(sealed: string): string {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;

/** A random opaque token (refresh tokens, one-time links) and the hash we store instead. */
export function opaqueToken(prefix: string): { token: string; hash: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
