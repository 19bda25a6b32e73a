// The import's edit of a YAML domains file line by line: the lines of the names it changes, adds or removes, and no
// other, so that every comment, blank line and quoting of the file stays as it was. The yaml package's Document API
// does the same for any file, but holds the whole document as nodes: for 100,000 names about 1 GiB (decision 027).
// This reads the file with js-yaml and keeps it as lines; it takes the common shape (`domains:` a block mapping at the
// top level, each entry a block mapping of scalars or an inline value on its key's line) and says "unsupported" for
// anything else. What it writes is read back and must give exactly the expected document (domains-text.ts), or the
// Document API does the edit instead.
import { isDeepStrictEqual } from 'node:util'
import yaml from 'js-yaml'
import { appendAll } from '../../shared/arrays.ts'
import { YAML_OPTIONS, yamlProblem } from '../sites/domains-file.ts'

type TermChanges = Record<string, number | string | boolean | null>
type Settings = Record<string, unknown>

/** The file is of a shape this edit does not take: the caller edits it with the Document API. */
export class Unsupported extends Error {
  override name = 'Unsupported'
}

/** js-yaml, and so the server, cannot read the file; the message says where and why. */
export class Unreadable extends Error {
  override name = 'Unreadable'
}

interface Entry {
  key: string
  /** Its key's line, and one past its last line of content (comments and blank lines after it are not its own). */
  first: number
  end: number
  /** The value written on the key's line (a flow mapping, `{}`, `null`), or null for a block below it. */
  inline: string | null
  value: Settings
  /** What the import does to it. */
  changes?: TermChanges
  removed?: boolean
}

const isObject = (value: unknown): value is Settings => value !== null && typeof value === 'object' && !Array.isArray(value)
const indentOf = (line: string) => /^ */.exec(line)![0].length
const isContent = (line: string) => !/^\s*(?:#.*)?\r?$/.test(line)
// A key: plain (no quote, bracket, brace or comment mark first; no ": " inside), or in double or single quotes.
const KEY_LINE = /^( *)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'{[\]#&*!|>%@`-][^#]*?)[ \t]*:(?:[ \t]+(.*?))?[ \t]*\r?$/
/** A term's line in a block entry: its value (a scalar on the line) and an end-of-line comment. */
const termLine = (indent: number, key: string) => new RegExp(`^ {${indent}}${key}[ \\t]*:[ \\t]+([^#{}[\\]|>&*!]*?)([ \\t]+#.*)?(\\r?)$`)

/** A scalar as YAML writes it on one line. */
const scalar = (value: number | string | boolean) => yaml.dump(value, { lineWidth: -1 }).trimEnd()
/** A name as a key: plain when it can be, else quoted. */
const keyOf = (name: string) => (/^[\p{L}\p{N}][\p{L}\p{N}.-]*$/u.test(name) ? name : JSON.stringify(name))

export interface YamlLines {
  document: Settings
  /** Every entry of `domains` by its key as the file writes it. */
  entries: Map<string, Entry>
  change(key: string, changes: TermChanges): void
  add(name: string, terms: TermChanges): void
  remove(key: string): void
  /** The edited file; throws Unsupported where an edit does not fit the file's shape. */
  text(): string
}

export function yamlLines(source: string): YamlLines {
  let document: unknown
  try {
    document = yaml.load(source, YAML_OPTIONS) ?? {}
  } catch (error) {
    // The server reads the file with js-yaml too (sites/domains-file.ts): what it cannot read, no edit makes loadable.
    // Not handed to the Document API, which takes minutes over a file nested a million deep.
    if (error instanceof yaml.YAMLException) throw new Unreadable(yamlProblem(error))
    throw error
  }
  if (!isObject(document)) throw new Unsupported('the top level is no mapping')
  const domains = document.domains ?? {}
  if (!isObject(domains)) throw new Unsupported('domains is no mapping')
  const lines = source.split('\n')
  const eol = source.includes('\r\n') ? '\r\n' : '\n'
  // Several documents, a tab in an indentation, anchors: not for this edit.
  if (lines.some((line) => /^(?:---|\.\.\.)(?:\s|$)/.test(line) || /^ *\t/.test(line))) throw new Unsupported('document markers or tabs')

  const head = lines.findIndex((line) => /^domains[ \t]*:/.test(line))
  let appendAt: number
  let indent = 2
  const entries = new Map<string, Entry>()
  if (head < 0) {
    if (Object.keys(domains).length > 0) throw new Unsupported('domains not found as a line')
    appendAt = -1
  } else {
    const rest = /^domains[ \t]*:(.*?)\r?$/
      .exec(lines[head]!)![1]!
      .replace(/\s+#.*$/, '')
      .trim()
    if (rest !== '' && rest !== '{}' && rest !== 'null' && rest !== '~') throw new Unsupported('domains is written inline')
    let end = head + 1
    while (end < lines.length && !(isContent(lines[end]!) && indentOf(lines[end]!) === 0)) end++
    let entry: Entry | undefined
    const close = (upTo: number) => {
      if (entry) entry.end = upTo
    }
    let lastContent = head
    for (let i = head + 1; i < end; i++) {
      const line = lines[i]!
      if (!isContent(line)) continue
      const width = indentOf(line)
      if (!entry) indent = width
      if (width === indent) {
        const match = KEY_LINE.exec(line)
        if (!match) throw new Unsupported(`line ${i + 1} is no entry of domains`)
        close(lastContent + 1)
        const key = yaml.load(match[2]!, YAML_OPTIONS)
        if (typeof key !== 'string' || !Object.hasOwn(domains, key)) throw new Unsupported(`line ${i + 1}: a key that is not a name`)
        const value = domains[key] ?? {}
        const inline = match[3] && !match[3].startsWith('#') ? match[3] : null
        if (!isObject(value)) throw new Unsupported(`${key}: an entry that is no mapping`)
        entry = { key, first: i, end: i + 1, inline, value }
        entries.set(key, entry)
      } else if (width < indent) {
        throw new Unsupported(`line ${i + 1} is indented less than the entries`)
      }
      lastContent = i
    }
    close(lastContent + 1)
    if (entries.size !== Object.keys(domains).length) throw new Unsupported('not every entry is on a line of its own')
    // A rest like "{}" on the domains line is dropped when a name is added below it.
    if (rest !== '') lines[head] = `domains:${lines[head]!.endsWith('\r') ? '\r' : ''}`
    appendAt = lastContent
  }

  const added: string[] = []
  const step = indent

  /** An entry's lines as the import leaves them. */
  function entryLines(entry: Entry): string[] {
    const own = lines.slice(entry.first, entry.end)
    if (!entry.changes) return own
    const next = { ...entry.value }
    for (const [key, value] of Object.entries(entry.changes)) {
      if (value === null) delete next[key]
      else next[key] = value
    }
    const cr = own[0]!.endsWith('\r') ? '\r' : ''
    const keyPart = KEY_LINE.exec(own[0]!)![2]!
    if (entry.inline !== null) {
      // A value on the key's line: written anew there (block below it when it was empty, which reads better).
      if (Object.keys(entry.value).length === 0) return [`${' '.repeat(indent)}${keyPart}:${cr}`, ...blockLines(next, indent + step, cr)]
      if (!Object.values(next).every((value) => value === null || ['string', 'number', 'boolean'].includes(typeof value)))
        throw new Unsupported('an inline entry with nested values')
      return [`${' '.repeat(indent)}${keyPart}: ${Object.keys(next).length ? yaml.dump(next, { flowLevel: 0, lineWidth: -1 }).trimEnd() : '{}'}${cr}`]
    }
    const below = own.slice(1)
    const firstBelow = below.find(isContent)
    const inner = firstBelow === undefined ? indent + step : indentOf(firstBelow)
    const result = [own[0]!, ...below]
    for (const [key, value] of Object.entries(entry.changes)) {
      const pattern = termLine(inner, key)
      const at = result.findIndex((line, i) => i > 0 && pattern.test(line))
      if (at < 0 && Object.hasOwn(entry.value, key)) throw new Unsupported(`${entry.key}: ${key} is not a one-line value`)
      if (value === null) {
        if (at >= 0) result.splice(at, 1)
      } else if (at >= 0) {
        result[at] = result[at]!.replace(pattern, (_line, _old, comment = '', end = '') => `${' '.repeat(inner)}${key}: ${scalar(value)}${comment}${end}`)
      } else {
        result.push(`${' '.repeat(inner)}${key}: ${scalar(value)}${cr}`)
      }
    }
    // An entry left without keys is written as an empty mapping, not as null.
    if (result.length === 1) result[0] = result[0]!.replace(/:[ \t]*(\r?)$/, ': {}$1')
    return result
  }

  const blockLines = (settings: Settings, at: number, cr: string) =>
    Object.entries(settings).map(([key, value]) => {
      if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') throw new Unsupported(`${key} is no scalar`)
      return `${' '.repeat(at)}${key}: ${scalar(value)}${cr}`
    })

  return {
    document,
    entries,
    change(key, changes) {
      const entry = entries.get(key)!
      entry.changes = { ...entry.changes, ...changes }
    },
    add(name, terms) {
      const settings = Object.fromEntries(Object.entries(terms).filter(([, value]) => value !== null)) as Settings
      const cr = eol === '\r\n' ? '\r' : ''
      if (Object.keys(settings).length === 0) added.push(`${' '.repeat(indent)}${keyOf(name)}: {}${cr}`)
      else appendAll(added, [`${' '.repeat(indent)}${keyOf(name)}:${cr}`, ...blockLines(settings, indent + step, cr)])
    },
    remove(key) {
      entries.get(key)!.removed = true
    },
    text() {
      const out: string[] = []
      const byFirst = new Map([...entries.values()].map((entry) => [entry.first, entry]))
      // Appended one by one: spread into push(), 80,000 new names are as many arguments, beyond the call stack.
      const addedOnce = () => {
        appendAll(out, added)
        added.length = 0
      }
      for (let i = 0; i < lines.length;) {
        const entry = byFirst.get(i)
        if (entry) {
          if (!entry.removed) appendAll(out, entryLines(entry))
          i = entry.end
        } else {
          out.push(lines[i]!)
          i++
        }
        if (i - 1 === appendAt && added.length) addedOnce()
      }
      if (added.length) {
        // No domains line yet: one at the end (after the file's last line break, if it has one).
        if (out.at(-1) === '') out.pop()
        out.push(`domains:${eol === '\r\n' ? '\r' : ''}`)
        addedOnce()
        out.push('')
      }
      return out.join('\n')
    },
  }
}

/** Whether the edited text reads as exactly the expected document. */
export function readsAs(text: string, expected: unknown): boolean {
  try {
    return isDeepStrictEqual(yaml.load(text, YAML_OPTIONS) ?? {}, expected)
  } catch {
    return false
  }
}
