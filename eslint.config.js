// ESLint: typescript-eslint's recommended rules over the server, tests, benchmarks, scripts and
// the dashboard. Formatting is Prettier's (eslint-config-prettier turns off the rules it owns);
// the direction of imports between modules is dependency-cruiser's (.dependency-cruiser.cjs).
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dashboard/dist/**', 'clients/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore names what is left out on purpose (a rest sibling, an unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  { files: ['dashboard/**'], languageOptions: { globals: { ...globals.browser } } },
  // Tests read JSON answers whose shape is what they assert, so `any` stands for "an answer".
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  prettier,
  // Prettier wraps code at 120 columns but leaves strings, template literals and comments as they
  // are: this rule holds every line to 120, with no exemption. Long texts are built with `+`
  // (the text unchanged), SQL, HTML and GraphQL documents wrap where whitespace is free, and test
  // titles are said in fewer words (so each stays one searchable string).
  {
    plugins: { '@stylistic': stylistic },
    rules: { '@stylistic/max-len': ['error', { code: 120, tabWidth: 2 }] },
  },
);
