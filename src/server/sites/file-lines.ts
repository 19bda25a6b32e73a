// Which line of a domains file a problem is on. The parsers keep no positions for the values they return (that
// would cost memory on every load), so the key path of a schema error (domains.example.de.price) is looked up in
// the text afterwards, only when there is an error.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The ways a key can be written: plain (YAML), double-quoted (YAML and JSON), single-quoted (YAML). */
function keyPattern(key: string, json: boolean): string {
  const quoted = escapeRegExp(JSON.stringify(key))
  if (json) return quoted
  return `(?:${escapeRegExp(key)}|${quoted}|'${escapeRegExp(key.replaceAll("'", "''"))}')`
}

/** Line (1-based) of character `position`, counting on from a known line start to save scanning twice. */
export function lineAt(text: string, position: number, from = { index: 0, line: 1 }): { index: number; line: number } {
  let { index, line } = from
  for (let next = text.indexOf('\n', index); next >= 0 && next < position; next = text.indexOf('\n', next + 1)) {
    line++
    index = next + 1
  }
  return { index, line }
}

/**
 * The line of the deepest key of `path` that can be found, each key searched after the one before it (an entry's
 * keys follow its name, in YAML as in JSON); null when not even the first is found. A number in the path (a list's
 * item) ends the search at its list's key.
 */
export function lineOfPath(text: string, path: readonly PropertyKey[], json: boolean): number | null {
  let found: { index: number; line: number } | null = null
  let from = 0
  for (const key of path) {
    if (typeof key !== 'string') break
    const pattern = keyPattern(key, json)
    // A key in block style starts its line; in flow style (and JSON) it follows "{", "," or white space.
    const block = json ? null : new RegExp(`^[ \\t]*(?:- )?${pattern}[ \\t]*:(?=\\s|$)`, 'gm')
    const flow = new RegExp(`(?:^|[\\s{,])${pattern}[ \\t]*:`, 'gm')
    let match: RegExpExecArray | null = null
    for (const regExp of block ? [block, flow] : [flow]) {
      regExp.lastIndex = from
      match = regExp.exec(text)
      if (match) break
    }
    if (!match) break
    found = lineAt(text, match.index + match[0].length - 1, found ?? undefined)
    from = match.index + match[0].length
  }
  return found?.line ?? null
}
