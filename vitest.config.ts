import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// The tests that go through the store run twice: on the embedded SQLite store, and in the project "postgres"
// against a real PostgreSQL server (DATABASE_URL). SQLite-only tests (a locked or full file) and tests that never
// touch the store (deploy, fuzzing the parser, most browser tests) run once. The browser tests of a whole sale run on
// both: "Done when" of the deals (issue 13/19) asks for the paths in Chromium on each store.
const STORE_TESTS = [
  'src/server/store/{store,migrations,postgres,inbox,sessions,sign-in,confirmation,deal,deal-record,dns-updates,domain-checks,invoice,notifications,privacy,audit}.test.ts',
  'src/server/jobs/{digest,audit-retention}.test.ts',
  'src/server/scheduler/scheduler.test.ts',
  'src/server/deal/{advance-invoices,auto-complete,deadlines,deal-rules,privacy,rates,webhooks}.test.ts',
  'src/server/dns/worker.test.ts',
  'src/server/payments/statement.test.ts',
  'src/server/domains-edit/save.test.ts',
  'src/server/visits/{counter,report}.test.ts',
  'tests/e2e/{checkout,console-audit,domain-checks,console-passkeys,deal-english,deal-no-script,deals,instalments,invoices,visits}.test.ts',
  'tests/integration/{abuse,audit,domain-check-job,domains-check-cli,checkout,cli,instalments,cluster,deal-rules,dns-publish,dns-sold,console-auth,console-sign-in,console-sign-in-limits,confirmation,console-inbox,contact-api,crash,data-dir,deal-crash,deals,deals-instances,domains,domains-instances,english-contact,health,languages-contact,hosts,instances,invoices,invoices-instances,logs,mail-delivery,memory,negotiation,notify,payments,privacy,rate-limits,route-schemas,shutdown,smtp-faults,startup,store-faults-postgres,visits}.test.ts',
]
const POSTGRES_ONLY = ['src/server/store/postgres.test.ts', 'tests/integration/{deals-instances,domains-instances,instances,invoices-instances,store-faults-postgres}.test.ts']

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
          include: ['src/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'],
          exclude: POSTGRES_ONLY,
          globalSetup: ['tests/helpers/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: STORE_TESTS,
          globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/global-setup-postgres.ts'],
        },
      },
    ],
  },
})
