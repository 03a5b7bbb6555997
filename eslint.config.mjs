// Lint: typescript-eslint's recommended rules (syntax only: TypeScript 7 has no JS API, so
// type-aware rules would need a second compiler), React hooks rules for the islands, and the
// architecture walls of DESIGN.md checked by eslint-plugin-boundaries. The app-to-app
// dependency graph (one direction, no cycle) is checked by scripts/app-graph.ts, which
// `npm run lint` runs after this.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'static/dist/', 'artifacts/', 'data/', '.test-cache/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // TypeScript itself reports undefined names, with the right globals per tsconfig.
  { files: ['**/*.{ts,tsx}'], rules: { 'no-undef': 'off' } },
  { files: ['static/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['server/production.js'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    files: ['islands/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: ['tsconfig.json', 'islands/tsconfig.json'], noWarnOnMultipleProjects: true }, node: true },
      'boundaries/include': ['server/**', 'islands/**', 'shared/**', 'migrations/**', 'scripts/**', 'test/**'],
      'boundaries/elements': [
        { type: 'islands', pattern: 'islands/**', mode: 'full' },
        { type: 'shared', pattern: 'shared/**', mode: 'full' },
        { type: 'migrations', pattern: 'migrations/**', mode: 'full' },
        { type: 'app-registry', pattern: 'server/apps/index.ts', mode: 'full' },
        { type: 'app', pattern: 'server/apps/*/**', mode: 'full', capture: ['app'] },
        { type: 'core', pattern: ['server/index.ts', 'server/app.ts', 'server/config.ts', 'server/context.ts', 'server/db/**', 'server/http/**', 'server/cache/**', 'server/jobs/**'], mode: 'full' },
        { type: 'server', pattern: 'server/**', mode: 'full' },
        { type: 'tooling', pattern: ['scripts/**', 'test/**'], mode: 'full' },
      ],
    },
    rules: {
      'boundaries/element-types': ['error', {
        default: 'allow',
        rules: [
          { from: 'islands', disallow: ['core', 'app', 'app-registry', 'server', 'migrations', 'tooling'], message: 'Islands never import server code (DESIGN.md).' },
          { from: 'shared', disallow: ['islands', 'core', 'app', 'app-registry', 'server', 'migrations', 'tooling'], message: 'shared/ imports neither side (DESIGN.md).' },
          { from: 'core', disallow: ['app', 'islands', 'tooling'], message: 'The server core never imports an app (DESIGN.md); it takes them from the registry, server/apps/index.ts.' },
          { from: 'migrations', disallow: ['app', 'app-registry', 'islands'], message: 'Migrations never import app code (DESIGN.md).' },
          { from: 'app', disallow: ['app-registry', 'islands', 'tooling'], message: 'An app imports the core, shared/ and apps below it, never the registry or the islands.' },
        ],
      }],
    },
  },
  // Tests of an app may build the whole app from the registry.
  {
    files: ['server/apps/**/*.test.ts'],
    rules: {
      'boundaries/element-types': ['error', {
        default: 'allow',
        rules: [{ from: 'app', disallow: ['islands'], message: 'Server tests never import island code.' }],
      }],
    },
  },
);
