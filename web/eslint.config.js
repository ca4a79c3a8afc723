// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every feature folder, read from the tree (a new feature is guarded without editing this file):
 * a feature may import shared code, never another feature. */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'e2e/screenshots', 'src/api/generated'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { import: importPlugin },
    settings: {
      // Relative imports only (no path aliases), so the Node resolver with TS extensions suffices.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import/no-cycle': 'error',
      'import/no-self-import': 'error',
      'import/no-useless-path-segments': 'error',
      'import/no-duplicates': 'error',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            // Features never import each other (composition happens in src/app).
            ...FEATURES.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature must not import another feature; compose them in src/app.',
            })),
            // Features do not import the app shell, except the route table of paths.
            {
              target: './src/features',
              from: './src/app',
              except: ['./paths.ts'],
              message: 'Features must not import from src/app (only src/app/paths.ts).',
            },
            // Shared code never imports features or the app.
            {
              target: ['./src/components', './src/lib', './src/i18n', './src/api'],
              from: ['./src/features', './src/app'],
              message: 'Shared code must not import features or the app shell.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared components take their data from the page: they never call the API themselves
    // (types from the API are fine).
    files: ['src/components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/client'],
              importNames: ['api', 'unwrap'],
              allowTypeImports: true,
              message: 'Components do not fetch: take the data (or a loader) from the page.',
            },
            {
              group: ['**/api/predict', '**/api/reviews', '**/api/devices', '**/api/waveforms'],
              allowTypeImports: true,
              message: 'Components do not fetch: take the data (or a loader) from the page.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs}', '*.config.{ts,js}', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
);
