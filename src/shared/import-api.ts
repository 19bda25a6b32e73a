// The portfolio import (`npx domain-lander import` and the console's page "Domains importieren"): what it reports.
// Shared by the server, the CLI and the console's React code; nothing here may import server code.

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
export interface Terms {
  price: number | null
  minOffer: number | null
  currency: string
}

/**
 * One problem of the list or of the result. `line` is the CSV line (or the JSON entry, counted from 1); `value` is
 * what the file had, shown as text wherever it appears.
 */
export type ImportProblem =
  | { kind: 'syntax'; line: number | null; message: string }
  | { kind: 'no-name-column'; headers: string[] }
  | { kind: 'two-columns'; line: number | null; field: ImportField; headers: string[] }
  | { kind: 'no-rows' }
  | { kind: 'no-name'; line: number }
  | { kind: 'name'; line: number; value: string }
  | { kind: 'wildcard'; line: number; value: string }
  | { kind: 'amount'; line: number; field: 'price' | 'minOffer'; value: string; reason: 'format' | 'cents' | 'range' | 'currency'; currency: string }
  | { kind: 'currency'; line: number; value: string }
  /** The same name twice (also as Unicode and punycode): a warning when both say the same, else an error. */
  | { kind: 'duplicate'; line: number; first: number; name: string; conflict: boolean }
  /** The domains file cannot be read, or would not be valid after the import. */
  | { kind: 'domains-file'; message: string }
  /** The domains file changed between the preview and "Übernehmen". */
  | { kind: 'changed' }
  /** The new file could not be written (the old one stays): the system's reason. */
  | { kind: 'write'; message: string }
  /** The server would not load the domains file as the import leaves it (too large, too much memory, …): its reason. */
  | { kind: 'refused'; message: string }
  /** Another import was writing the domains file and did not finish in time: who it is. */
  | { kind: 'busy'; message: string }

export const isWarning = (problem: ImportProblem) => problem.kind === 'duplicate' && !problem.conflict

export interface ImportReport {
  format: ImportFormat
  /** The CSV's separator as found, or null (JSON). */
  separator: ',' | ';' | null
  /** Which column went to which field, and the columns left alone. */
  columns: { field: ImportField; header: string }[]
  ignored: string[]
  /** Rows (CSV, without the header) or entries (JSON) read. */
  rows: number
  domainsFile: string
  /** SHA-256 of the domains file as read ('' when there was none): "Übernehmen" refuses when it changed since. */
  fingerprint: string
  /** Every problem, unless the list was cut (the console's are; counts has the whole number). */
  problems: ImportProblem[]
  added: { name: string; terms: Terms }[]
  changed: { name: string; before: Terms; after: Terms }[]
  removed: { name: string; terms: Terms }[]
  counts: { errors: number; warnings: number; added: number; changed: number; removed: number; unchanged: number }
  written: boolean
}

/** The console page's data. */
export interface ImportPageData {
  /** DOMAINS_FILE, or null: then there is no file to import into. */
  domainsFile: string | null
  maxBytes: number
}
