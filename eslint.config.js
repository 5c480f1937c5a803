import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const productImport = {
  regex: '(^|/)product(/|$)',
  message: 'A platform module does not import product/: app.ts hands it the policies and hooks it needs.',
};
const testHelperImport = {
  regex: '(^|/)(test-support|fixtures|test)/',
  message: 'The server does not import test helpers: its build (dist/) holds none.',
};
const testFiles = ['**/*.test.ts', '**/test-support/**', '**/fixtures/**'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'e2e/screenshots/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Layers point one way: the platform modules are handed the product's policies and hooks by
  // app.ts, and never import product/ themselves (ARCHITECTURE.md, issue 20). And the server's
  // code imports no test helper, so dist/ holds none (tsconfig.build.json leaves them out).
  {
    files: ['apps/server/src/{ai,analytics,auth,data,db,notify,ops,realtime,storage,web}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [productImport] }] },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: [testHelperImport] }] },
  },
  {
    files: ['apps/server/src/{ai,analytics,auth,data,db,notify,ops,realtime,storage,web}/**/*.ts'],
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: [productImport, testHelperImport] }] },
  },
  // The rules of hooks, for the React app only.
  { files: ['apps/web/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
);
