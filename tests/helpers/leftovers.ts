// After an erasure: looks through EVERY table of the test's store (listed by the database itself, so a table added
// later is looked at too) for what should be gone: texts of the person, and the ids of their inquiries and replies.
import { onPostgres, queryStore } from './postgres.ts'

export interface Erasure {
  /** Strings that only the erased person's data holds (an address, a word of a message, a form token). */
  texts: string[]
  inquiryIds: number[]
  replyIds: number[]
}

const asText = (value: unknown): string => {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1')
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** Every table name of the store: user tables, FTS shadow tables and the migration bookkeeping alike. */
export async function tablesOf(dataDir: string): Promise<string[]> {
  const rows = onPostgres()
    ? await queryStore<{ name: string }>(dataDir, `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`)
    : await queryStore<{ name: string }>(dataDir, `SELECT name FROM sqlite_master WHERE type = 'table'`)
  return rows.map((row) => row.name).sort()
}

/** One line per finding ("outbox.inquiry_id = 3", "inquiries_fts_data holds erika@…"); empty when nothing is left. */
export async function leftoversOf(dataDir: string, erasure: Erasure): Promise<string[]> {
  const found: string[] = []
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`
  for (const table of await tablesOf(dataDir)) {
    const rows = await queryStore(dataDir, `SELECT * FROM ${quoted(table)}`)
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = asText(value).toLowerCase()
        for (const needle of erasure.texts) if (text.includes(needle.toLowerCase())) found.push(`${table}.${column} holds ${needle}`)
        const id = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : null
        if (id === null) continue
        if (((table === 'inquiries' && column === 'id') || column === 'inquiry_id') && erasure.inquiryIds.includes(id)) found.push(`${table}.${column} = ${id}`)
        if (((table === 'replies' && column === 'id') || column === 'reply_id') && erasure.replyIds.includes(id)) found.push(`${table}.${column} = ${id}`)
        // SQLite's FTS index keeps each row's size under the inquiry's id (its _data table numbers pages instead).
        if (['inquiries_fts', 'inquiries_fts_docsize'].includes(table) && ['id', 'rowid'].includes(column) && erasure.inquiryIds.includes(id))
          found.push(`${table}.${column} = ${id}`)
      }
    }
  }
  if (!onPostgres()) {
    // The index's pages compress their terms; ask the index itself for each word as well.
    for (const text of erasure.texts) {
      const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
      if (words.length === 0) continue
      const match = words.map((word) => `"${word}"`).join(' ')
      const hits = await queryStore(dataDir, `SELECT rowid FROM inquiries_fts WHERE inquiries_fts MATCH ?`, [match])
      if (hits.length > 0) found.push(`inquiries_fts finds ${text}`)
    }
  }
  return found
}
