import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      projectId: 'fieldassist',
      databaseUrl: undefined,
      serviceKey: undefined,
      publicUrl: 'http://127.0.0.1:3000',
      appOrigins: ['http://127.0.0.1:3000'],
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', PROJECT_ID: 'bad id!' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((p) => p.split(':')[0])).toEqual([
        'PORT',
        'PROJECT_ID',
        'DATABASE_URL',
      ]);
    }
  });

  it('reads APP_ORIGINS as a list and treats blank values as unset', () => {
    expect(loadConfig({ APP_ORIGINS: 'https://a.example, https://b.example', DATABASE_URL: '' })).toMatchObject({
      appOrigins: ['https://a.example', 'https://b.example'],
      databaseUrl: undefined,
    });
  });
});
