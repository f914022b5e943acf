// ESLint for the whole tree: typescript-eslint's recommended rules, and the React hooks rules for the web app.
// Runs in `npm test` with --max-warnings 0 (decision 0086).
import Module from 'node:module';

// typescript-eslint parses with the TypeScript 6 API; the project builds with TypeScript 7, whose package has no
// such API. Inside this ESLint process only, a `require('typescript')` from a package gets TypeScript 6 from
// tools/lint-typescript, which stays out of node_modules/.bin so `tsc` remains TypeScript 7.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const fromPackage = request === 'typescript' && /[\\/]node_modules[\\/]/.test(parent?.filename ?? '');
  return resolveFilename.call(this, fromPackage ? 'lint-typescript' : request, parent, ...rest);
};

const { default: tseslint } = await import('typescript-eslint');
const { default: reactHooks } = await import('eslint-plugin-react-hooks');

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'tools/', 'test-results/', 'data/', 'src/web/public/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Kysely<any>: migrations and the query helpers are written against no particular schema (DEVELOPERS.md);
    // tests read JSON answers freely.
    files: ['src/server/db/**/*.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
