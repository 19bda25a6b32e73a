// Editing the domains file name by name: the console's page "Domains" and `npx domain-lander domains set|add|remove`
// (docs/domains.md, docs/decisions/044). Shared by the server, the CLI and the console's React code; nothing here may
// import server code.
import type { Language } from './language.ts'

export const DOMAINS_PATH = '/domains'

/** Names per page of the console's list. */
export const DOMAINS_PAGE_SIZE = 100

/** The keys of an entry that the console and `domains set` edit; every other key of an entry stays as it is. */
export const EDITABLE_FIELDS = ['price', 'priceType', 'minOffer', 'currency', 'status', 'language', 'listed', 'description'] as const
export type EditableField = (typeof EDITABLE_FIELDS)[number]

/**
 * New values of an entry's keys; null removes the key (the default's value holds again). Checked by the server's
 * schema (domains-edit/edits.ts), which holds to this type.
 */
export interface FieldChanges {
  price?: number | null
  priceType?: 'fixed' | 'negotiable' | 'on-request' | null
  minOffer?: number | null
  currency?: string | null
  status?: 'available' | 'reserved' | 'sold' | null
  language?: Language | 'auto' | null
  listed?: boolean | null
  description?: string | null
}

/**
 * One edit. `scale` changes the asking price of each name by a percentage (rounded to whole units); the server turns
 * it into `set` edits with the amounts, which is what is written and passed on to other instances.
 */
export type DomainEdit =
  | { op: 'set'; name: string; changes: FieldChanges }
  | { op: 'add'; name: string; changes: FieldChanges }
  | { op: 'remove'; name: string }
  | { op: 'scale'; names: string[]; percent: number }

/** At most this many edits in one request. */
export const MAX_EDITS = 10_000

/** POST /api/domains/apply: the edits of the preview (POST /api/domains/preview, `{ edits }`) again, and the fingerprint of the domains file it read. */
export interface DomainsApplyRequest {
  edits: DomainEdit[]
  fingerprint: string
}

/** An entry's editable keys as the file gives them itself (null: not set there). */
export type EntryFields = Record<EditableField, number | string | boolean | null>

export interface DomainDiff {
  /** As people read it. */
  name: string
  kind: 'added' | 'changed' | 'removed'
  before: EntryFields | null
  after: EntryFields | null
}

export type DomainEditProblem =
  | { kind: 'name'; value: string }
  | { kind: 'wildcard'; value: string }
  | { kind: 'unknown'; name: string }
  | { kind: 'exists'; name: string }
  | { kind: 'twice'; name: string }
  | { kind: 'no-price'; name: string }
  /** The current file cannot be read, or the result would not be valid: the message says where. */
  | { kind: 'domains-file'; message: string }
  /** The server's loader refuses the result. */
  | { kind: 'refused'; message: string }
  /** The file (or, with several instances, the domains in the store) changed since the preview. */
  | { kind: 'changed' }
  | { kind: 'busy'; message: string }
  | { kind: 'write'; message: string }

/** A warning leaves the other edits to be made. */
export const isEditWarning = (problem: DomainEditProblem) => problem.kind === 'no-price'

export interface DomainsEditReport {
  domainsFile: string
  /** SHA-256 of the domains file the edits were planned on ('' when there was none). */
  fingerprint: string
  changes: DomainDiff[]
  problems: DomainEditProblem[]
  /** The edits as made, with amounts (a `scale` becomes `set`s). */
  resolved: ResolvedEdit[]
  written: boolean
}

/** What is written, and passed on to the other instances through the store: absolute values only, so applying one twice changes nothing. */
export type ResolvedEdit = { op: 'set' | 'add'; name: string; changes: FieldChanges } | { op: 'remove'; name: string }

/** One row of the console's list: the entry's settings in force (the default's where the entry sets none). */
export interface DomainRow {
  /** As people read it. */
  name: string
  ascii: string
  price: number | null
  currency: string
  priceType: 'fixed' | 'negotiable' | 'on-request' | null
  minOffer: number | null
  status: 'available' | 'reserved' | 'sold'
  language: Language | 'auto' | null
  listed: boolean
  description: string | null
}

/** GET /api/domains?q=…&offset=… */
export interface DomainsListPage {
  q: string
  offset: number
  total: number
  items: DomainRow[]
}

export interface DomainsPageData {
  /** DOMAINS_FILE, or null: the page explains how to start one. */
  domainsFile: string | null
  /** Without DOMAINS_FILE: where "Domains-Datei anlegen" writes it. */
  suggestedFile: string
  list: DomainsListPage
}

/** POST /api/domains/create: the first name of a new domains file. */
export interface DomainsCreateRequest {
  name: string
}
export interface DomainsCreated {
  file: string
}
