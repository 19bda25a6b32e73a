// Visitor statistics (decision 049): counters per name, Berlin day, metric and key; the day's visitor hashes and
// salt, both erased when the day is over.
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, withoutRowid } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('visit_counts')
    .addColumn('domain', 'text', notNull)
    .addColumn('day', 'text', notNull)
    .addColumn('metric', 'text', (c) => c.notNull().check(oneOf('metric', ['visit', 'visitor', 'filtered', 'source', 'language', 'form'])))
    .addColumn('key', 'text', notNull)
    .addColumn('count', big(dialect), notNull)
    .addPrimaryKeyConstraint('visit_counts_pkey', ['day', 'domain', 'metric', 'key'])
    .$call(withoutRowid(dialect))
    .execute()
  await db.schema
    .createTable('visitor_hashes')
    .addColumn('day', 'text', notNull)
    .addColumn('domain', 'text', notNull)
    .addColumn('hash', 'text', notNull)
    .addPrimaryKeyConstraint('visitor_hashes_pkey', ['day', 'domain', 'hash'])
    .$call(withoutRowid(dialect))
    .execute()
  await db.schema
    .createTable('visit_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', notNull)
    .execute()
}
