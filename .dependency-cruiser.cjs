// The direction of imports (docs/decisions/015), checked by `npm run lint`.
const BROWSER = '^src/(client|console|shared)/'
const TESTS = '\\.test\\.tsx?$'

/**
 * The server's folders (and the root's modules) from the bottom up (decision 015). A module imports only from the
 * layers below its own, never from another folder of its own layer nor from above; a route (`route.ts`) too, as its
 * folder's (issue 38 took away the routes' exemption). What a submission is (spam, the owner's mail, the confirmation,
 * the quota) sits in `submission`, below the routes that take one (contact, checkout, confirm). Above them all, and
 * not bound by the order: what builds and starts the server (`app.ts`, `serve.ts`, `main.ts`, `admin/app.ts`) with
 * what it decorates its Fastify instances with (`decorations.ts`, decision 051) and the plugins that own the
 * workers it composes (`plugins/`, decision 061).
 */
const LAYERS = [
  ['lib', 'data-dir.ts', 'types', 'queue'],
  // The parts of the configuration's one schema, which config.ts composes.
  ['config'],
  ['config.ts', 'store'],
  ['http', 'logger.ts', 'scheduler'],
  ['cluster', 'sites'],
  ['export', 'import', 'invoice', 'notify', 'portfolio'],
  ['domains-edit', 'mail', 'visits'],
  ['submission'],
  ['confirm', 'deal', 'dns', 'privacy'],
  ['domain-checks', 'page', 'payments'],
  ['admin', 'checkout', 'contact', 'health', 'jobs'],
]
const TOP = '^src/server/(app|serve|main|vite-dev|decorations)\\.ts$|^src/server/admin/app\\.ts$|^src/server/plugins/'
const place = (name) => `^src/server/${name.replace(/\./g, '\\.')}${name.endsWith('.ts') ? '$' : '/'}`
const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((name) => ({
    name: `layer-order:${name}`,
    comment: `${name} imports only from the layers below its own (decision 015).`,
    severity: 'error',
    from: { path: place(name), pathNot: [TESTS, TOP] },
    to: {
      path: LAYERS.slice(index)
        .flat()
        .filter((other) => other !== name)
        .map(place),
    },
  })),
)

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'layer-order:every-folder-has-a-layer',
      comment: 'A new folder of src/server gets its place in LAYERS.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: [TESTS, TOP, ...LAYERS.flat().map(place)] },
      to: { path: '^src/server/' },
    },
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
      to: { path: '^src/', pathNot: ['^src/server/store/', '^src/shared/', '^src/server/data-dir\\.ts$', '^src/server/lib/'] },
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
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
}
