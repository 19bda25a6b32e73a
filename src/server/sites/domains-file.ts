// Reading a domains file: its size, its syntax (JSON, or YAML with js-yaml), then the checks and the table of
// domains-document.ts. Every problem names the line it is on. The server runs this in a process of its
// own (domains-loader.ts), the CLI directly.
import fs from 'node:fs'
import yaml from 'js-yaml'
import { visible } from '../export/escape.ts'
import { DomainsFileError, validateDomains } from './domains-document.ts'
import { openDomainsTable, type DomainsConfig, type DomainsTableData } from './domains-table.ts'
import { lineAt, lineOfPath } from './file-lines.ts'

/**
 * The largest domains file read: about 400,000 entries of a name, a price and a minimum offer. A larger one is
 * refused before it is read, so that a file written by mistake (a log, a database dump) cannot exhaust the memory.
 */
export const MAX_FILE_MIB = 32

function readText(file: string): string {
  const tooLarge = (bytes: number) =>
    new DomainsFileError(`${file} is ${(bytes / 2 ** 20).toFixed(1)} MiB; a domains file may have at most ${MAX_FILE_MIB} MiB (see "Large portfolios" in docs/domains.md)`)
  let bytes: Buffer
  try {
    const { size } = fs.statSync(file)
    if (size > MAX_FILE_MIB * 2 ** 20) throw tooLarge(size)
    bytes = fs.readFileSync(file)
  } catch (error) {
    if (error instanceof DomainsFileError) throw error
    throw new DomainsFileError(`${file}: ${(error as Error).message}`)
  }
  // It may have grown between the two calls.
  if (bytes.length > MAX_FILE_MIB * 2 ** 20) throw tooLarge(bytes.length)
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
    // The core schema of YAML 1.2, as the `yaml` package read these files before: `yes` and 2024-01-01 stay strings.
    return yaml.load(text, { schema: yaml.CORE_SCHEMA })
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error
    throw new DomainsFileError(`${file}: line ${error.mark.line + 1}, column ${error.mark.column + 1}: ${error.reason}`)
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
