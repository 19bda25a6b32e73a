// The direction of imports (docs/decisions/015), checked by `npm run lint`.
const BROWSER = '^src/(client|console|shared)/'
const TESTS = '\\.test\\.tsx?$'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A module never reaches itself through its imports, type imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'browser-code-stays-in-the-browser',
      comment: 'The page, the console and what they share run in the browser: never server or CLI code, never Node.',
      severity: 'error',
      from: { path: BROWSER, pathNot: TESTS },
      to: { path: '^src/(server|cli)/' },
    },
    {
      name: 'browser-code-without-node',
      severity: 'error',
      from: { path: BROWSER, pathNot: TESTS },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'routes-never-import-routes',
      comment: 'What two routes share lives in the folder that owns it (decision 015).',
      severity: 'error',
      from: { path: '/route\\.ts$' },
      to: { path: '/route\\.ts$' },
    },
    {
      name: 'the-store-is-below-the-features',
      comment: 'The store knows its own files, what client and server share, the data directory, what a mailbox is and the key that seals secrets at rest.',
      severity: 'error',
      from: { path: '^src/server/store/', pathNot: TESTS },
      to: { path: '^src/', pathNot: ['^src/server/store/', '^src/shared/', '^src/server/data-dir\\.ts$', '^src/server/mail/mailbox\\.ts$', '^src/server/sites/uts46\\.ts$', '^src/server/lib/seal\\.ts$'] },
    },
    {
      name: 'the-server-never-imports-the-cli',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|coverage)/' },
    // Type imports count: a cycle of types is still a cycle for the reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
}
