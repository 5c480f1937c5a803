import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config, ResolvedConfig } from './config.js';

/**
 * Creates DATA_DIR and fills in the secrets the environment leaves unset: the service key
 * (in the platform's `blnk_sk_<project>_<random>` format) and the key that signs access
 * tokens, each generated into DATA_DIR on the first start and read back afterwards.
 */
export async function prepareDataDir(config: Config): Promise<ResolvedConfig> {
  await mkdir(config.dataDir, { recursive: true });
  const serviceKey =
    config.serviceKey ??
    (await secretFile(
      join(config.dataDir, 'service-key'),
      () => `blnk_sk_${config.projectId.slice(-8)}_${randomBytes(24).toString('hex')}`,
    ));
  const authSecret =
    config.authSecret ??
    (await secretFile(join(config.dataDir, 'auth-secret'), () => randomBytes(48).toString('base64url')));
  return { ...config, serviceKey, authSecret };
}

async function secretFile(file: string, generate: () => string): Promise<string> {
  if (!existsSync(file)) {
    await writeFile(file, generate(), { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error; // another instance wrote it first
    });
  }
  return (await readFile(file, 'utf8')).trim();
}
