import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from './config.js';

/**
 * Creates DATA_DIR and returns the service key: SERVICE_KEY when set, else the one generated
 * into DATA_DIR on the first start (in the platform's `blnk_sk_<project>_<random>` format).
 */
export async function prepareDataDir(config: Config): Promise<string> {
  await mkdir(config.dataDir, { recursive: true });
  if (config.serviceKey) return config.serviceKey;
  const file = join(config.dataDir, 'service-key');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const key = `blnk_sk_${config.projectId.slice(-8)}_${randomBytes(24).toString('hex')}`;
  await writeFile(file, key, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error; // another instance wrote it first
  });
  return (await readFile(file, 'utf8')).trim();
}
