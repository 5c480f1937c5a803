// Layers point one way (issue 20): the lint rules that keep platform modules from importing product/
// and the server's code from importing test helpers (which stay out of dist/).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const problems = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath })).flatMap((result) =>
    result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message),
  );

describe('platform modules and the product', () => {
  it.each([
    'db/rest/service.ts',
    'storage/files.ts',
    'auth/caller.ts',
    'ai/local.ts',
    'data/extract.ts',
    'realtime/hub.ts',
  ])('refuses an import of product/ in %s', async (file) => {
    const found = await problems(
      `apps/server/src/${file}`,
      "import { authorize } from '../product/policies.js';\nexport const policy = authorize;\n",
    );
    expect(found).toEqual([expect.stringContaining('A platform module does not import product/')]);
  });

  it('lets app.ts and the product import both', async () => {
    expect(
      await problems(
        'apps/server/src/app.ts',
        "import { authorize } from './product/policies.js';\nexport const policy = authorize;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'apps/server/src/product/folders.ts',
        "import { topFolder } from '../storage/paths.js';\nexport const folder = topFolder;\n",
      ),
    ).toEqual([]);
  });
});

describe('the server and its test helpers', () => {
  it.each([
    ['product/chat/service.ts', '../../test-support/test-server.js'],
    ['storage/files.ts', './test-support/storage-app.js'],
    ['main.ts', './data/fixtures/make-documents.js'],
  ])('refuses a test helper in %s', async (file, helper) => {
    const found = await problems(
      `apps/server/src/${file}`,
      `import { helper } from '${helper}';\nexport const used = helper;\n`,
    );
    expect(found).toEqual([expect.stringContaining('The server does not import test helpers')]);
  });

  it('still refuses product/ in a platform module alongside it', async () => {
    const found = await problems(
      'apps/server/src/db/pool.ts',
      "import { a } from '../product/policies.js';\nimport { b } from '../test-support/users.js';\nexport const used = [a, b];\n",
    );
    expect(found).toEqual([
      expect.stringContaining('A platform module does not import product/'),
      expect.stringContaining('The server does not import test helpers'),
    ]);
  });

  it('lets tests and test helpers import them', async () => {
    expect(
      await problems(
        'apps/server/src/storage/files.test.ts',
        "import { helper } from './test-support/storage-app.js';\nexport const used = helper;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'apps/server/src/data/test-support/web-servers.ts',
        "import { helper } from '../../test-support/test-server.js';\nexport const used = helper;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'apps/server/test/security/x.test.ts',
        "import { helper } from '../../src/test-support/users.js';\nexport const used = helper;\n",
      ),
    ).toEqual([]);
  });
});
