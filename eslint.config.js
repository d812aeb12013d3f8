import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The core (src/core) is pure TypeScript shared by the worker, the CLI and the tests: it may
// not reach into the UI, the browser storage, the worker plumbing or Node.
const coreBoundary = {
  patterns: [
    { group: ['react', 'react-dom', 'react-dom/*', 'react/*', 'react-konva', 'konva', 'konva/*'], message: 'src/core must not import UI libraries.' },
    { group: ['dexie', 'comlink', 'zustand', 'zustand/*'], message: 'src/core must not import storage, worker or store libraries.' },
    { group: ['node:*', 'fs', 'path', 'os'], message: 'src/core must not import Node APIs: take a FileSource instead.' },
    { group: ['**/app/**', '**/worker/**', '**/io/browser*', '**/db/**', '../../app*', '../app*', '**/cli/**'], message: 'src/core cannot import the layers above it.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'out/**', 'public/demo/**'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.name='eval']", message: 'nothing is evaluated' }],
      'no-new-func': 'error',
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-properties': ['error', { property: 'innerHTML', message: 'dataset text is rendered as text, never as HTML' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', coreBoundary] },
  },
);
