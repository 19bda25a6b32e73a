// Editing the domains file name by name: the console's page "Domains" and `npx domain-lander domains set|add|remove`
// (docs/domains.md, docs/decisions/044). Shared by the server, the CLI and the console's React code; nothing here may
// import server code.
import * as z from 'zod/mini'
import { LANGUAGES, type Language } from './language.ts'

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
const entryFieldsSchema = z.record(z.enum(EDITABLE_FIELDS), z.union([z.number(), z.string(), z.boolean(), z.null()]))
export type EntryFields = z.infer<typeof entryFieldsSchema>

const domainDiffSchema = z.object({
  /** As people read it. */
  name: z.string(),
  kind: z.enum(['added', 'changed', 'removed']),
  before: z.nullable(entryFieldsSchema),
  after: z.nullable(entryFieldsSchema),
})
export type DomainDiff = z.infer<typeof domainDiffSchema>

const problemOf = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, shape: S) => z.object({ kind: z.literal(kind), ...shape })
const domainEditProblemSchema = z.discriminatedUnion('kind', [
  problemOf('name', { value: z.string() }),
  problemOf('wildcard', { value: z.string() }),
  problemOf('unknown', { name: z.string() }),
  problemOf('exists', { name: z.string() }),
  problemOf('twice', { name: z.string() }),
  problemOf('no-price', { name: z.string() }),
  /** The current file cannot be read, or the result would not be valid: the message says where. */
  problemOf('domains-file', { message: z.string() }),
  /** The server's loader refuses the result. */
  problemOf('refused', { message: z.string() }),
  /** The file (or, with several instances, the domains in the store) changed since the preview. */
  problemOf('changed', {}),
  problemOf('busy', { message: z.string() }),
  problemOf('write', { message: z.string() }),
])
export type DomainEditProblem = z.infer<typeof domainEditProblemSchema>

/** A warning leaves the other edits to be made. */
export const isEditWarning = (problem: DomainEditProblem) => problem.kind === 'no-price'

const priceType = z.enum(['fixed', 'negotiable', 'on-request'])
const saleStatus = z.enum(['available', 'reserved', 'sold'])
const pageLanguage = z.enum([...LANGUAGES, 'auto'])
const fieldChangesSchema = z.object({
  price: z.optional(z.nullable(z.number())),
  priceType: z.optional(z.nullable(priceType)),
  minOffer: z.optional(z.nullable(z.number())),
  currency: z.optional(z.nullable(z.string())),
  status: z.optional(z.nullable(saleStatus)),
  language: z.optional(z.nullable(pageLanguage)),
  listed: z.optional(z.nullable(z.boolean())),
  description: z.optional(z.nullable(z.string())),
}) satisfies z.ZodMiniType<FieldChanges>

/** What is written, and passed on to the other instances through the store: absolute values only, so applying one twice changes nothing. */
const resolvedEditSchema = z.union([
  z.object({ op: z.enum(['set', 'add']), name: z.string(), changes: fieldChangesSchema }),
  z.object({ op: z.literal('remove'), name: z.string() }),
])
export type ResolvedEdit = z.infer<typeof resolvedEditSchema>

export const domainsEditReportSchema = z.object({
  domainsFile: z.string(),
  /** SHA-256 of the domains file the edits were planned on ('' when there was none). */
  fingerprint: z.string(),
  changes: z.array(domainDiffSchema),
  problems: z.array(domainEditProblemSchema),
  /** The edits as made, with amounts (a `scale` becomes `set`s). */
  resolved: z.array(resolvedEditSchema),
  written: z.boolean(),
})
export type DomainsEditReport = z.infer<typeof domainsEditReportSchema>

/** One row of the console's list: the entry's settings in force (the default's where the entry sets none). */
const domainRowSchema = z.object({
  /** As people read it. */
  name: z.string(),
  ascii: z.string(),
  price: z.nullable(z.number()),
  currency: z.string(),
  priceType: z.nullable(priceType),
  minOffer: z.nullable(z.number()),
  status: saleStatus,
  language: z.nullable(pageLanguage),
  listed: z.boolean(),
  description: z.nullable(z.string()),
})
export type DomainRow = z.infer<typeof domainRowSchema>

/** GET /api/domains?q=…&offset=… */
export const domainsListPageSchema = z.object({ q: z.string(), offset: z.number(), total: z.number(), items: z.array(domainRowSchema) })
export type DomainsListPage = z.infer<typeof domainsListPageSchema>

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
export const domainsCreatedSchema = z.object({ file: z.string() })
export type DomainsCreated = z.infer<typeof domainsCreatedSchema>
