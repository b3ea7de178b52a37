// ESLint (flat config): the recommended JavaScript and typescript-eslint rules over the sources,
// tests, scripts and benchmarks. Formatting is Prettier's job (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'packages/*/dist/**', 'node_modules/**', 'data/**', 'bench/results/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The plain JavaScript files (bin/, scripts/*.mjs) run on Node.
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      // Unused names fail the type check already (noUnusedLocals); `_`-prefixed ones are intended.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read HTTP response bodies as parsed JSON (helpers.ts Response.json(): any).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The dashboard's browser modules: `tsc -p tsconfig.web.json` checks their names against the
    // DOM and the libraries' globals (web/dashboard/globals.d.ts), so ESLint need not.
    files: ['web/dashboard/**/*.js'],
    rules: { 'no-undef': 'off' },
  },
);
