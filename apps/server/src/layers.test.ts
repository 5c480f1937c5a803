// Layers point one way (issue 20): the lint rule that keeps platform modules from importing product/.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const problems = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath })).flatMap((result) => result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));

describe('platform modules and the product', () => {
  it.each(['db/rest/service.ts', 'storage/files.ts', 'auth/caller.ts', 'ai/local.ts', 'data/extract.ts', 'realtime/hub.ts'])('refuses an import of product/ in %s', async (file) => {
    const found = await problems(`apps/server/src/${file}`, "import { authorize } from '../product/policies.js';\nexport const policy = authorize;\n");
    expect(found).toEqual([expect.stringContaining('A platform module does not import product/')]);
  });

  it('lets app.ts and the product import both', async () => {
    expect(await problems('apps/server/src/app.ts', "import { authorize } from './product/policies.js';\nexport const policy = authorize;\n")).toEqual([]);
    expect(await problems('apps/server/src/product/folders.ts', "import { topFolder } from '../storage/paths.js';\nexport const folder = topFolder;\n")).toEqual([]);
  });
});
