// What the schema steps share: the column types that differ between the databases, the row id, and the way a
// column's CHECK takes new values. Shipped steps use them: none of them may change in what it makes.
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type RawBuilder } from 'kysely'
import type { DialectName, SchemaDb } from '../migration-step.ts'

/** Epoch milliseconds, ids and money: SQLite's INTEGER holds 64 bits, PostgreSQL's does not. */
export const big = (dialect: DialectName) => (dialect === 'sqlite' ? 'integer' : 'bigint')

/** The row id: SQLite's INTEGER PRIMARY KEY is the rowid itself; PostgreSQL numbers it with an identity. */
export const rowId = (dialect: DialectName) => (column: ColumnDefinitionBuilder) =>
  dialect === 'sqlite' ? column.primaryKey() : column.generatedByDefaultAsIdentity().primaryKey()

export const notNull = (column: ColumnDefinitionBuilder) => column.notNull()

/** `column IN ('a', 'b', ...)`, for a CHECK: the values are the step's own constants. */
export const oneOf = (column: string, values: readonly string[]): RawBuilder<unknown> =>
  sql.raw(`${column} IN (${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')})`)

/** A table keyed by its primary key alone: SQLite then keeps no rowid beside it (PostgreSQL has no such thing). */
export const withoutRowid =
  (dialect: DialectName) =>
  <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table

/**
 * Lets the CHECK of a TEXT NOT NULL column with a default take other values. SQLite cannot alter a CHECK: the values
 * move to a new column (`<column>_next`, the last of the table), which then takes the old one's name. PostgreSQL
 * swaps the named constraint.
 */
export async function widenCheck(db: SchemaDb, dialect: DialectName, table: string, column: string, values: readonly string[], fallback: string) {
  if (dialect === 'postgres') {
    await db.schema.alterTable(table).dropConstraint(`${table}_${column}_check`).execute()
    await db.schema.alterTable(table).addCheckConstraint(`${table}_${column}_check`, oneOf(column, values)).execute()
    return
  }
  const next = `${column}_next`
  await db.schema
    .alterTable(table)
    .addColumn(next, 'text', (c) => c.notNull().defaultTo(fallback).check(oneOf(next, values)))
    .execute()
  await db
    .updateTable(table)
    .set((eb) => ({ [next]: eb.ref(column) }))
    .execute()
  await db.schema.alterTable(table).dropColumn(column).execute()
  await db.schema.alterTable(table).renameColumn(next, column).execute()
}

/** Fresh statistics for the planner, for indexes it would otherwise judge by the others' (see the steps). */
export async function analyze(db: SchemaDb, ...tables: string[]) {
  for (const table of tables) await sql`ANALYZE ${sql.table(table)}`.execute(db)
}

export const MAIL_STATES = ['pending', 'sent', 'failed'] as const
