import { buildApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { prepareDataDir } from './data-dir.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { createPool } from './db/pool.js';

async function main() {
  const config = loadConfigOrExit();
  const resolved = await prepareDataDir(config);
  const log = (message: string) => console.log(`[fieldassist] ${message}`);

  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
    databaseUrl = embedded.url;
  }
  const pool = createPool(databaseUrl, config.dbPoolMax);
  const applied = await migrate(pool);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);

  const app = await buildApp({ config: resolved, pool });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    let stage = 'finishing in-flight requests';
    app.log.info(`${signal}: ${stage}`);
    const force = setTimeout(() => {
      console.error(`[fieldassist] ${signal}: still ${stage} after 30 s; exiting now`);
      process.exit(1);
    }, 30_000);
    force.unref();
    await app.close(); // stops accepting, waits for in-flight requests
    stage = 'closing the database connections';
    await pool.end();
    stage = 'stopping the embedded PostgreSQL';
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  log(
    `FieldAssist is running at ${config.publicUrl} (data in ${config.dataDir}${embedded ? ', embedded PostgreSQL' : ''})`,
  );
}

main().catch((error: unknown) => {
  console.error('[fieldassist] failed to start:', error);
  process.exit(1);
});
