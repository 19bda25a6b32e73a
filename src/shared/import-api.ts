// The portfolio import (`npx domain-lander import` and the console's page "Domains importieren"): what it reports.
// Shared by the server, the CLI and the console's React code; nothing here may import server code.
import * as z from 'zod/mini'

export const IMPORT_PATH = '/domains-importieren'

/** The largest list the console takes (the CLI has no limit): a registrar's export of 100,000 names is about 6 MB. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024

export type ImportFormat = 'csv' | 'json'

/** What a column (or a JSON key) of the list is for. */
export type ImportField = 'name' | 'price' | 'minOffer' | 'currency'

/** POST /api/import/preview: the list as text, read in the browser. */
export interface ImportRequest {
  text: string
  format: ImportFormat
  /** Remove the exact names of the domains file that the list does not name. */
  prune: boolean
}

/** POST /api/import/apply: the same list again, and the fingerprint of the domains file the preview was made from. */
export interface ImportApplyRequest extends ImportRequest {
  fingerprint: string
}

/** A name's terms as the domains file will have them; null: none. The currency is the one in force. */
const termsSchema = z.object({ price: z.nullable(z.number()), minOffer: z.nullable(z.number()), currency: z.string() })
export type Terms = z.infer<typeof termsSchema>

const importField = z.enum(['name', 'price', 'minOffer', 'currency'])
const problemOf = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, shape: S) => z.object({ kind: z.literal(kind), ...shape })
const line = z.number()
const message = z.string()

/**
 * One problem of the list or of the result. `line` is the CSV line (or the JSON entry, counted from 1); `value` is
 * what the file had, shown as text wherever it appears.
 */
const importProblemSchema = z.discriminatedUnion('kind', [
  problemOf('syntax', { line: z.nullable(line), message }),
  problemOf('no-name-column', { headers: z.array(z.string()) }),
  problemOf('two-columns', { line: z.nullable(line), field: importField, headers: z.array(z.string()) }),
  problemOf('no-rows', {}),
  problemOf('no-name', { line }),
  problemOf('name', { line, value: z.string() }),
  problemOf('wildcard', { line, value: z.string() }),
  problemOf('amount', {
    line,
    field: z.enum(['price', 'minOffer']),
    value: z.string(),
    reason: z.enum(['format', 'cents', 'range', 'currency']),
    currency: z.string(),
  }),
  problemOf('currency', { line, value: z.string() }),
  /** The same name twice (also as Unicode and punycode): a warning when both say the same, else an error. */
  problemOf('duplicate', { line, first: z.number(), name: z.string(), conflict: z.boolean() }),
  /** The domains file cannot be read, or would not be valid after the import. */
  problemOf('domains-file', { message }),
  /** The domains file changed between the preview and "Übernehmen". */
  problemOf('changed', {}),
  /** The new file could not be written (the old one stays): the system's reason. */
  problemOf('write', { message }),
  /** The server would not load the domains file as the import leaves it (too large, too much memory, …): its reason. */
  problemOf('refused', { message }),
  /** Another import was writing the domains file and did not finish in time: who it is. */
  problemOf('busy', { message }),
])
export type ImportProblem = z.infer<typeof importProblemSchema>

export const isWarning = (problem: ImportProblem) => problem.kind === 'duplicate' && !problem.conflict

export const importReportSchema = z.object({
  format: z.enum(['csv', 'json']),
  /** The CSV's separator as found, or null (JSON). */
  separator: z.nullable(z.enum([',', ';'])),
  /** Which column went to which field, and the columns left alone. */
  columns: z.array(z.object({ field: importField, header: z.string() })),
  ignored: z.array(z.string()),
  /** Rows (CSV, without the header) or entries (JSON) read. */
  rows: z.number(),
  domainsFile: z.string(),
  /** SHA-256 of the domains file as read ('' when there was none): "Übernehmen" refuses when it changed since. */
  fingerprint: z.string(),
  /** Every problem, unless the list was cut (the console's are; counts has the whole number). */
  problems: z.array(importProblemSchema),
  added: z.array(z.object({ name: z.string(), terms: termsSchema })),
  changed: z.array(z.object({ name: z.string(), before: termsSchema, after: termsSchema })),
  removed: z.array(z.object({ name: z.string(), terms: termsSchema })),
  counts: z.object({ errors: z.number(), warnings: z.number(), added: z.number(), changed: z.number(), removed: z.number(), unchanged: z.number() }),
  written: z.boolean(),
})
export type ImportReport = z.infer<typeof importReportSchema>

/** The console page's data. */
export interface ImportPageData {
  /** DOMAINS_FILE, or null: then there is no file to import into. */
  domainsFile: string | null
  maxBytes: number
}
