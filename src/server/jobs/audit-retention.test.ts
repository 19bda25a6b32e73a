// The audit trail's two years (decision 043), on the store of the test project (SQLite, or PostgreSQL): a run of the
// daily job removes the rows older than that and keeps the rest.
import pino from 'pino'
import { expect, test } from 'vitest'
import { openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { AUDIT_RETENTION_DAYS, auditRetentionJob } from './audit-retention.ts'

const DAY = 24 * 3_600_000
const NOW = Date.UTC(2026, 10, 26, 2, 40)

test('a run removes the rows older than two years and keeps the newer ones', async () => {
  const store = await openTestStore(await testStoreConfig('audit-retention-'))
  expect(AUDIT_RETENTION_DAYS).toBe(730)
  await store.addAuditEntry({ at: NOW - 730 * DAY - 1, actor: 'CLI', action: 'password', outcome: 'ok' })
  await store.addAuditEntry({ at: NOW - 730 * DAY + 1, actor: 'CLI', action: 'import', outcome: 'ok' })
  const job = auditRetentionJob({ store, log: pino({ level: 'silent' }) })
  await job.run({ now: NOW, dueAt: NOW, period: '2026-11-26', signal: new AbortController().signal })
  expect((await store.auditEntries({ limit: 10 })).map((entry) => entry.action)).toEqual(['import'])
})
