// A domains document (parsed from the file, or given as a value) checked against the schema (settings.ts) entry by
// entry and built into the table the server keeps (domains-table.ts). Apart from the file's parsers (domains-file.ts),
// which only the loading thread and the CLI need.
import type { z } from 'zod'
import { domainsTableBuilder, openDomainsTable, type DomainsConfig, type DomainsTableData } from './domains-table.ts'
import { domainEntrySchema, domainKey, domainSettingsShape, domainsFileSchema, notADomainKey, type DomainSettings } from './settings.ts'

export class DomainsFileError extends Error {
  override name = 'DomainsFileError'
}

/** Problems listed in one message; a file broken throughout says how many more there are. */
const MAX_SHOWN = 20

export interface Problem {
  path: readonly PropertyKey[]
  message: string
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** zod's issues as problems under `prefix`; an unknown key is named in the path, so that its line is found. */
const problemsOf = (error: z.ZodError, prefix: PropertyKey[] = []): Problem[] =>
  error.issues.map((issue) => ({
    path: [...prefix, ...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])],
    message: issue.message,
  }))

type EntryCheck = { success: true; data: DomainSettings } | { success: false; error: z.ZodError }

/**
 * An entry checked by the schema of each key it has, not by the whole object schema, which looks at every one of its
 * keys for each entry: a third of the time for 100,000 entries (decision 026). The same answer as domainEntrySchema
 * (settings.ts has no check of a whole entry); an entry that is not a mapping, or has a key the schema does not know,
 * is left to it for its message.
 */
function checkEntry(value: unknown): EntryCheck {
  if (!isPlainObject(value) || Object.keys(value).some((key) => !Object.hasOwn(domainSettingsShape, key))) return domainEntrySchema.safeParse(value)
  const data: Record<string, unknown> = {}
  for (const key in value) {
    const result = domainSettingsShape[key]!.safeParse(value[key])
    if (!result.success) return domainEntrySchema.safeParse(value)
    if (result.data !== undefined) data[key] = result.data
  }
  return { success: true, data: data as DomainSettings }
}

/**
 * The validated file as a table, or its problems. The entries are checked one by one rather than as one zod record,
 * so that no second copy of 100,000 entries is made, a duplicate after normalisation (München.de and
 * xn--mnchen-3ya.de) is found, and a file broken throughout stops after the problems it can show.
 */
export function validateDomains(raw: unknown): { data: DomainsTableData } | { problems: Problem[]; more: number } {
  const document = raw ?? {}
  const domains = isPlainObject(document) ? (document.domains ?? {}) : undefined
  if (!isPlainObject(document) || !isPlainObject(domains)) {
    // Not even the shape (a list, a text, `domains` that is no mapping): zod says what is wrong with it.
    const result = domainsFileSchema.safeParse(document)
    return { problems: result.success ? [{ path: [], message: 'is not a mapping of keys' }] : problemsOf(result.error), more: 0 }
  }
  const problems: Problem[] = []
  let more = 0
  const report = (found: Problem[]) => {
    for (const problem of found) {
      if (problems.length < MAX_SHOWN) problems.push(problem)
      else more++
    }
  }
  // What holds for every domain, checked once; the entries after it, one by one.
  const top = domainsFileSchema.safeParse({ ...document, domains: {} })
  let table: ReturnType<typeof domainsTableBuilder> | null = null
  if (top.success) {
    const { domains: _none, ...shared } = top.data
    table = domainsTableBuilder(shared)
  } else report(problemsOf(top.error))
  const firstKey = new Map<string, string>()
  for (const key of Object.keys(domains)) {
    // The key as domainsFileSchema checks it, without a zod call for each of 100,000.
    const name = domainKey(key)
    const entry = checkEntry(domains[key])
    if (!name) report([{ path: ['domains', key], message: notADomainKey(key) }])
    if (!entry.success) report(problemsOf(entry.error, ['domains', key]))
    if (!name || !entry.success) continue
    const other = firstKey.get(name)
    if (other !== undefined) {
      report([{ path: ['domains', key], message: `names the same domain as "${other}" (${name})` }])
      continue
    }
    firstKey.set(name, key)
    table?.add(name, entry.data)
  }
  return problems.length > 0 || !table ? { problems, more } : { data: table.build() }
}

/** The configuration of a document given as a value (tests; the defaults when there is no file). */
export function domainsConfigOf(document: unknown): DomainsConfig {
  const result = validateDomains(document)
  if ('data' in result) return openDomainsTable(result.data)
  throw new DomainsFileError(result.problems.map(({ path, message }) => `${path.join('.')}: ${message}`).join('\n'))
}
