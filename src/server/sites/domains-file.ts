// Reading a domains file: its size, its syntax (JSON, or YAML with js-yaml), then the checks and the table of
// domains-document.ts. Every problem names the line it is on. The server runs this in a process of its
// own (domains-loader.ts), the CLI directly.
import fs from 'node:fs'
import yaml from 'js-yaml'
import { visible } from '../lib/escape.ts'
import { DomainsFileError, validateDomains } from './domains-document.ts'
import { openDomainsTable, type DomainsConfig, type DomainsTableData } from './domains-table.ts'
import { lineAt, lineOfPath } from './file-lines.ts'

/**
 * The largest domains file read: about 400,000 entries of a name, a price and a minimum offer. A larger one is
 * refused before it is read, so that a file written by mistake (a log, a database dump) cannot exhaust the memory.
 */
export const MAX_FILE_MIB = 32

/**
 * How deep lists and mappings may nest: js-yaml's own limit (its default, given explicitly), and the import's for
 * JSON. A domains file needs five levels; walking a value nested millions deep ends in "Maximum call stack size
 * exceeded" (JSON.parse copes, zod, JSON.stringify and structuredClone do not).
 */
export const MAX_NESTING = 100

/**
 * How the file's YAML is read: the core schema of YAML 1.2, as the `yaml` package read these files before (`yes` and
 * 2024-01-01 stay strings), and js-yaml's nesting limit (its default, named; its types do not know the option).
 */
export const YAML_OPTIONS = { schema: yaml.CORE_SCHEMA, maxDepth: MAX_NESTING }

/** What js-yaml found wrong, and where (several documents in one file have no position). */
export const yamlProblem = (error: yaml.YAMLException) =>
  error.mark ? `line ${error.mark.line + 1}, column ${error.mark.column + 1}: ${error.reason}` : error.reason

/** Whether `value` nests lists and mappings deeper than MAX_NESTING; found without recursion, so at any depth. */
export function nestsTooDeep(value: unknown): boolean {
  const open: [unknown, number][] = [[value, 1]]
  for (let next = open.pop(); next !== undefined; next = open.pop()) {
    const [node, depth] = next
    if (node === null || typeof node !== 'object') continue
    if (depth > MAX_NESTING) return true
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') open.push([child, depth + 1])
  }
  return false
}

/** Throws the error that refuses a domains file of `bytes` bytes, if it is larger than MAX_FILE_MIB. */
export function checkFileSize(file: string, bytes: number): void {
  if (bytes > MAX_FILE_MIB * 2 ** 20) {
    throw new DomainsFileError(
      `${file} is ${(bytes / 2 ** 20).toFixed(1)} MiB; a domains file may have at most ${MAX_FILE_MIB} MiB (see "Large portfolios" in docs/domains.md)`,
    )
  }
}

function readText(file: string): string {
  let bytes: Buffer
  try {
    checkFileSize(file, fs.statSync(file).size)
    bytes = fs.readFileSync(file)
  } catch (error) {
    if (error instanceof DomainsFileError) throw error
    throw new DomainsFileError(`${file}: ${(error as Error).message}`)
  }
  // It may have grown between the two calls.
  checkFileSize(file, bytes.length)
  return bytes.toString('utf8').replace(/^\uFEFF/, '')
}

const isJson = (file: string) => /\.json$/i.test(file)

function parse(file: string, text: string): unknown {
  if (isJson(file)) {
    try {
      return JSON.parse(text)
    } catch (error) {
      const message = (error as Error).message
      // V8 says where: "Expected ',' or '}' after property value in JSON at position 25 (line 3 column 5)", or quotes
      // the text around it: 'Unexpected token 'e', ..."notify": telegram+ht"... is not valid JSON'. That text is
      // found again for its line and left out of the message: the file may hold tokens (notify: addresses).
      const quoted = /(?:\.\.\.)?"(.*)"(?:\.\.\.)? is not valid JSON$/s.exec(message)?.[1]
      const found = quoted ? text.indexOf(quoted) : -1
      const position = /at position (\d+)/.exec(message)?.[1] ?? (found >= 0 ? found + Math.floor(quoted!.length / 2) : undefined)
      const { line } = lineAt(text, position === undefined ? text.length : Number(position))
      const reason = message.replace(/ in JSON at position.*$/, '').replace(/,?\s*(?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
      throw new DomainsFileError(`${file}: line ${line}: ${reason}`)
    }
  }
  try {
    return yaml.load(text, YAML_OPTIONS)
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error
    throw new DomainsFileError(`${file}: ${yamlProblem(error)}`)
  }
}

/** Reads, checks and builds the domains file; a DomainsFileError names the file, each problem and its line. */
export function loadDomainsFile(file: string): DomainsTableData {
  const text = readText(file)
  const result = validateDomains(parse(file, text))
  if ('data' in result) return result.data
  const lines = result.problems.map(({ path, message }) => {
    const line = lineOfPath(text, path, isJson(file))
    return `  ${line === null ? '' : `line ${line}: `}${visible(path.map(String).join('.') || '(top level)')}: ${visible(message)}`
  })
  if (result.more > 0) lines.push(`  … and ${result.more} more`)
  throw new DomainsFileError(`${file} is not a valid domains file:\n${lines.join('\n')}`)
}

/** For the CLI, which reads the file once: in this thread. */
export const readDomainsFile = (file: string): DomainsConfig => openDomainsTable(loadDomainsFile(file))
