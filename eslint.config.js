// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'web/dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  // The dashboard's hooks: the rules of hooks, complete effect dependencies, and the React
  // Compiler's checks (no state set during render or synchronously in an effect, refs read in
  // handlers and effects only, pure renders). Warnings fail like errors (\`exhaustive-deps\`).
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: Object.fromEntries(
      Object.entries(reactHooks.configs.flat['recommended-latest'].rules).map(([rule]) => [rule, 'error']),
    ),
  },
  {
    files: ['src/cli/**', 'bench/**', 'scripts/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  // The layers (docs/architecture.md, src/*/README.md): nothing imports upward. A relative import
  // that climbs into a folder it may not use fails the lint.
  ...layer('src/domain/**', String.raw`^\.\./`, 'domain/ is pure: it imports nothing else in src/'),
  ...layer(
    'src/badges/**',
    up('db', 'http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin'),
    'badges/ only draws SVG',
  ),
  ...layer(
    'src/schemas/**',
    up('db', 'http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin', 'pricing'),
    'schemas/ describe the wire only',
  ),
  ...layer(
    'src/pricing/**',
    up('http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin'),
    'pricing/ sits below services and routes',
  ),
  ...layer(
    'src/db/**',
    up('http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin', 'badges'),
    'db/ sits below everything that uses it',
  ),
  ...layer(
    'src/mail/**',
    up('db', 'http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin', 'security'),
    'mail/ only sends mail: its settings are passed in',
  ),
  ...layer(
    'src/security/**',
    up('http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin'),
    'security/ sits below http/ and services/',
  ),
  // metrics.ts reports db/sqlite-busy.js's retry counter.
  ...layer(
    'src/http/**',
    String.raw`${up('services', 'routes', 'ingest', 'jobs', 'process', 'admin')}|^(\.\./)+db/(?!sqlite-busy\.js)`,
    'http/ is the edge: no services, no queries',
  ),
  // Below the edge, refusals are domain errors (domain/errors.ts); only http/ makes problems of them.
  ...layer(
    'src/ingest/**',
    up('http', 'services', 'routes', 'jobs', 'process', 'admin'),
    'ingest/ sits below services and routes: raise domain/errors.js, not HTTP problems',
  ),
  ...layer(
    'src/services/**',
    up('http', 'routes', 'jobs', 'process', 'admin'),
    'services/ sit below routes and jobs: raise domain/errors.js, not HTTP problems',
  ),
  // A service that stores usage (the OTLP receiver) is handed the ingest writer: it may name the
  // writer's types, never run ingest code itself. Locks are db/locks.ts's named functions.
  {
    files: ['src/services/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\.\./)+ingest/`,
              allowTypeImports: true,
              message: 'services/ name ingest types only',
            },
            {
              regex: String.raw`^(\.\./)+db/dialect\.js$`,
              message: 'services/ take locks through db/locks.js: no lock key or dialect in a service',
            },
          ],
        },
      ],
    },
  },
  // The CLI is bundled alone (scripts/build-cli.ts): a server import would ship the server in it.
  ...layer(
    'src/cli/**',
    String.raw`${up('db', 'http', 'services', 'routes', 'ingest', 'jobs', 'process', 'admin', 'security', 'mail', 'badges', 'schemas')}|^(\.\./)+(app|app-options|app-types|config|config-sso|config-accounts|logger|server)\.js$`,
    'cli/ talks to the server over HTTP only: it may use domain/ and pricing/',
  ),
  ...layer(
    'src/process/**',
    up('services', 'routes', 'ingest', 'jobs', 'admin', 'mail', 'badges'),
    'process/ runs the app: it builds nothing the app builds',
  ),
  ...layer(
    'src/admin/**',
    up('http', 'routes', 'ingest', 'jobs', 'process'),
    'admin/ commands work on the database and the app, not on the HTTP edge',
  ),
  ...layer('src/jobs/**', up('routes', 'process', 'admin'), 'jobs/ sit below the process'),
  ...layer(
    'src/mcp/**',
    up('db', 'http', 'routes', 'ingest', 'jobs', 'process', 'admin'),
    'mcp/ asks services, as routes do: no queries, no HTTP (routes/mcp.ts is its edge)',
  ),
  // routes/admin.ts runs the two operations that are also jobs (jobs/).
  ...layer('src/routes/**', up('process', 'admin'), 'routes/ are registered by app.ts'),
  // Routes ask services; a query's types may be named, never called.
  {
    files: ['src/routes/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\.\./)+db/queries/`,
              allowTypeImports: true,
              message: 'routes/ ask services, never a query',
            },
          ],
        },
      ],
    },
  },
);

/** A regex for relative imports that climb into any of `folders`. */
function up(...folders) {
  return String.raw`^(\.\./)+(${folders.join('|')})/`;
}

/** An ESLint block refusing, in `files`, relative imports matching `regex`. */
function layer(files, regex, message) {
  return [{ files: [files], rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] } }];
}
