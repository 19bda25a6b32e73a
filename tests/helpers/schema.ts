// A description of a store's schema, table by table and column by column, to compare one made by the schema steps
// with the one the steps made when they were SQL text (tests/fixtures/schema/*.json, scripts/schema-fixtures.ts).
// Only formatting is normalized (whitespace, identifier quotes, the case of SQL words outside string literals, and
// of SQLite's declared types, which SQLite itself reads without case); PostgreSQL's catalog prints every
// definition in one canonical form, so there only the test's own schema name is taken out.
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { MIGRATION_LOCK } from '../../src/server/store/migrate.ts'

type Row = Record<string, unknown>

/** SQL text in one form: string literals kept as written, everything else lower case, unquoted, spaced once. */
function normalizeSql(text: string): string {
  const parts = text.split(/('(?:[^']|'')*')/)
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return part
      return part
        .replace(/"([^"]*)"/g, '$1')
        .toLowerCase()
        .replace(/\s+/g, ' ')
        .replace(/\( /g, '(')
        .replace(/ \)/g, ')')
        .replace(/ ,/g, ',')
    })
    .join('')
    .trim()
}

/** The CHECK constraints in a CREATE TABLE text, each as `check (...)`, sorted (their order means nothing). */
function checksOf(createText: string): string[] {
  const text = normalizeSql(createText)
  const checks: string[] = []
  const pattern = /\bcheck ?\(/g
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let depth = 0
    let end = match.index + match[0].length - 1
    let inLiteral = false
    for (; end < text.length; end++) {
      const char = text[end]
      if (char === "'") inLiteral = !inLiteral
      if (inLiteral) continue
      if (char === '(') depth++
      if (char === ')' && --depth === 0) break
    }
    checks.push(`check (${text.slice(text.indexOf('(', match.index) + 1, end)})`)
  }
  return checks.sort()
}

function describeSqlite(file: string): Row {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const all = (query: string) => db.prepare(query).all() as Row[]
    const objects = all("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex_%' ORDER BY type, name")
    const tables: Row = {}
    for (const table of objects.filter((object) => object.type === 'table')) {
      const name = String(table.name)
      const createText = String(table.sql)
      const quoted = `"${name.replace(/"/g, '""')}"`
      const virtual = /^create virtual table/i.test(createText.trim())
      tables[name] = {
        ...(virtual ? { create: normalizeSql(createText) } : {}),
        withoutRowid: /\bwithout rowid\s*$/.test(normalizeSql(createText)),
        columns: all(`PRAGMA table_xinfo(${quoted})`).map((column) => ({ ...column, type: String(column.type).toUpperCase() })),
        checks: checksOf(createText),
        foreignKeys: all(`PRAGMA foreign_key_list(${quoted})`),
        indexes: all(`PRAGMA index_list(${quoted})`)
          .map(({ seq: _seq, ...index }): Row => {
            const own = objects.find((object) => object.type === 'index' && object.name === index.name)
            return {
              ...index,
              columns: all(`PRAGMA index_xinfo("${String(index.name)}")`),
              ...(own?.sql ? { create: normalizeSql(String(own.sql)) } : {}),
            }
          })
          .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      }
    }
    return {
      objects: objects.map(({ type, name, tbl_name }) => ({ type, name, tbl_name })),
      tables,
      triggers: Object.fromEntries(objects.filter((object) => object.type === 'trigger').map((trigger) => [trigger.name, normalizeSql(String(trigger.sql))])),
      migrations: all('SELECT name FROM kysely_migration ORDER BY name').map((row) => row.name),
      userVersion: (db.prepare('PRAGMA user_version').get() as Row).user_version,
    }
  } finally {
    db.close()
  }
}

async function describePostgres(databaseUrl: string): Promise<Row> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema
    const withoutSchema = (value: unknown): unknown => (typeof value === 'string' ? value.split(`${schema}.`).join('').split(`"${schema}".`).join('') : value)
    const all = async (query: string) =>
      (await client.query<Row>(query, [schema])).rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, withoutSchema(value)])))
    const relations = await all(
      `SELECT c.relname AS name, c.relkind AS kind, c.relpersistence AS persistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 ORDER BY c.relname`,
    )
    const columns = await all(
      `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, is_identity, identity_generation,
              identity_start, identity_increment, is_generated, generation_expression, collation_name
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    )
    const constraints = await all(
      `SELECT c.conrelid::regclass::text AS table_name, c.conname AS name, c.contype AS type, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 ORDER BY 1, 2`,
    )
    const indexes = await all('SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY tablename, indexname')
    const triggers = await all(
      `SELECT t.tgrelid::regclass::text AS table_name, t.tgname AS name, pg_get_triggerdef(t.oid) AS definition
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND NOT t.tgisinternal ORDER BY 1, 2`,
    )
    const functions = await all(
      `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = $1 ORDER BY 1`,
    )
    const migrations = (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((row) => row.name)
    const version = (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows.map((row) => row.version)
    return { relations, columns, constraints, indexes, triggers, functions, migrations, version }
  } finally {
    await client.end()
  }
}

/** The description of the store of `config`: its SQLite file, or its PostgreSQL schema. */
export async function describeStoreSchema(config: { dataDir: string; databaseUrl?: string | undefined }): Promise<Row> {
  return config.databaseUrl ? describePostgres(config.databaseUrl) : describeSqlite(path.join(config.dataDir, 'domain-lander.sqlite'))
}

/** The schema steps as SQL text, as the programs before the steps of src/server/store/migrations/ ran them. */
interface OldSteps {
  sqlite: (string[] | { code: string })[]
  postgres: (string[] | { code: string })[]
}
const oldSteps = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'schema', 'old-steps.json'), 'utf8')) as OldSteps

/** The number of schema steps the last program of SQL-text steps had (28 on SQLite, 29 on PostgreSQL). */
export const oldStepCount = (postgres: boolean) => (postgres ? oldSteps.postgres : oldSteps.sqlite).length

/**
 * Makes the (empty) store of `config` what a program of `version` schema steps left, from the steps as that program
 * ran them: the version in PRAGMA user_version or schema_version (every program kept it), and with `recorded` also
 * the names Kysely's Migrator recorded (the programs since the Migrator: '0001', '0002', ...).
 */
export async function oldSchema(config: { dataDir: string; databaseUrl?: string | undefined }, version: number, { recorded = false } = {}): Promise<void> {
  const postgres = config.databaseUrl !== undefined
  const steps = (postgres ? oldSteps.postgres : oldSteps.sqlite).slice(0, version)
  // The one step given as code changes data only (it seals a TOTP secret): on an empty store it does nothing.
  const statements = steps.flatMap((step) => (Array.isArray(step) ? step : []))
  const migrator = [
    'CREATE TABLE kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)',
    'CREATE TABLE kysely_migration_lock (id varchar(255) NOT NULL PRIMARY KEY, is_locked integer NOT NULL DEFAULT 0)',
    "INSERT INTO kysely_migration_lock (id, is_locked) VALUES ('migration_lock', 0)",
    ...steps.map(
      (_, index) => `INSERT INTO kysely_migration (name, timestamp) VALUES ('${String(index + 1).padStart(4, '0')}', '${new Date().toISOString()}')`,
    ),
  ]
  if (recorded) statements.push(...migrator)
  if (postgres) {
    const client = new pg.Client({ connectionString: config.databaseUrl })
    await client.connect()
    try {
      // Under the migration lock, as every program took it: Kysely's Migrator, opening another test's store at the
      // same time, reads the catalog of every schema, and fails on a column renamed under it.
      await client.query('BEGIN')
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      for (const statement of statements) await client.query(statement)
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)')
      await client.query(`INSERT INTO schema_version (version) VALUES (${version})`)
      await client.query('COMMIT')
    } finally {
      await client.end()
    }
    return
  }
  fs.mkdirSync(config.dataDir, { recursive: true })
  const file = path.join(config.dataDir, 'domain-lander.sqlite')
  fs.closeSync(fs.openSync(file, 'wx', 0o600))
  const db = new DatabaseSync(file)
  try {
    for (const statement of statements) db.exec(statement)
    db.exec(`PRAGMA user_version = ${version}`)
  } finally {
    db.close()
  }
}
