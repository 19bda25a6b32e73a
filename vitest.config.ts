import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// The tests whose subject is the store run twice: on the embedded SQLite store, and in the project "postgres"
// against a real PostgreSQL server (DATABASE_URL). The rule for the second: a file runs there when what it asserts
// depends on the store's SQL behaving the same on both (the store's own tests and the units that go through it, the
// kill -9 and outage tests whose point is durability, several processes or instances on one store, and the
// integration files on concurrency, gapless invoice numbers, payment matching, erasure and the audit trail). A file
// whose subject is HTTP, the log, start-up, shutdown, DATA_DIR, memory, health, rate limits, hosts, languages or the
// routes' schemas runs once, on SQLite; before dropping one, check that the store methods it reaches are exercised
// on PostgreSQL by a file that stays. Of the browser tests, the two whole sales run on both: "Done when" of the
// deals (issue 13/19) asks for them in Chromium on each store (the negotiated deal and the fixed-price checkout).
const STORE_TESTS = [
  'src/server/store/{store,migrations,postgres,inbox,sessions,sign-in,confirmation,deal,deal-record,dns-updates,domain-checks,invoice,notifications,privacy,audit}.test.ts',
  'src/server/jobs/{digest,audit-retention}.test.ts',
  'src/server/scheduler/scheduler.test.ts',
  'src/server/deal/{advance-invoices,auto-complete,deadlines,deal-rules,negotiation-queries,paid-queries,privacy,rates,webhooks}.test.ts',
  'src/server/dns/worker.test.ts',
  'src/server/payments/statement.test.ts',
  'src/server/domains-edit/save.test.ts',
  'src/server/visits/{counter,report}.test.ts',
  'tests/e2e/{checkout,deals}.test.ts',
  'tests/integration/{audit,cluster,crash,deal-crash,deals-instances,domains-instances,instances,invoices,invoices-instances,payments,privacy,store-faults-postgres}.test.ts',
  // Issue 20/27's breaks that involve the store, on both as its "Done when" asks: the checkout's terms (stored or
  // not), the sign-in budgets (quotas in the store), visitors counted (in the store).
  'tests/integration/{checkout,console-sign-in-limits,visits}.test.ts',
  // Issue 38: the Übersicht's names that need attention are counted and picked in SQL, which each store must do alike.
  'tests/integration/domain-health.test.ts',
]
const POSTGRES_ONLY = [
  'src/server/store/postgres.test.ts',
  'tests/integration/{deals-instances,domains-instances,instances,invoices-instances,store-faults-postgres}.test.ts',
]

// The unit files next to the sources share their workers on SQLite (project "sqlite-unit", isolate: false): each
// file then imports only what the files before it in the same worker have not, where an isolated file evaluates its
// whole module graph afresh (decision 054: 76-80 CPU-seconds for them, 115-121 isolated). What may not share a
// worker stays isolated in "sqlite": a file that mocks a module (the mock would be taken by, or miss, the copy
// already in the worker's cache), and the two whose inputs are millions of characters deep or tens of megabytes (the
// largest heaps, 365-440 MB, on top of every earlier file's modules). A file added next to the sources shares by
// default; it belongs here when it mocks a module or keeps state at module level that a later file would see.
// `npm test -- --project sqlite` runs "sqlite-unit" too (scripts/test.ts). The postgres project's unit files stay
// isolated: sharing, they cost more (decision 054).
const UNIT_ISOLATED = ['src/server/domains-edit/list.test.ts', 'src/server/import/{plan,source}.test.ts']

export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition; its default second decides outcomes by the machine's speed (a worker that
    // starts in 1.2 s on a busy machine is not a failure). The test's own timeout still bounds it.
    expect: { poll: { timeout: 15_000 } },
    // Two cores: integration and browser files start servers and Chromium; keep them from starving each other.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: [...UNIT_ISOLATED, 'tests/**/*.test.ts'],
          exclude: POSTGRES_ONLY,
          globalSetup: ['tests/helpers/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'sqlite-unit',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...POSTGRES_ONLY, ...UNIT_ISOLATED],
          isolate: false,
          globalSetup: ['tests/helpers/global-setup-unit.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: STORE_TESTS,
          globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/global-setup-postgres.ts'],
          setupFiles: ['tests/helpers/setup-postgres.ts'],
        },
      },
    ],
  },
})
