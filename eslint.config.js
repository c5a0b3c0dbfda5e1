// Lint rules double as the architecture's fences (ARCHITECTURE §2): each folder may import
// only what its process can run, so a mistake fails `npm test` instead of a code review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const fence = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['common/**'],
    rules: fence([
      {
        group: ['electron', 'node:*', 'fs', 'path', 'os'],
        message: 'common/ runs on both sides: no Node or Electron.',
      },
      {
        group: ['**/main/**', '**/renderer/**', '**/preload/**'],
        message: 'common/ depends on nothing of ours.',
      },
    ]),
  },
  {
    files: [
      'main/engine/**',
      'main/models/**',
      'main/packs/**',
      'main/cli/**',
      'main/host/**',
      'main/api/**',
    ],
    rules: fence([
      { group: ['electron'], message: 'Only main/app may import electron (it must run headless).' },
      { group: ['**/renderer/**', '**/preload/**'], message: 'main/ must not import the UI.' },
    ]),
  },
  {
    files: ['renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...fence([
        {
          group: ['electron', 'node:*'],
          message: 'The renderer has no Node: call window.studio instead.',
        },
        {
          group: ['**/main/**', '**/preload/**'],
          message: 'The renderer talks to main only through StudioApi.',
        },
      ]),
    },
  },
);
