// What a visitor typed reaches the owner's terminal. A raw ESC or C1 character there is a command, not text
// (OSC 52 writes the clipboard, OSC 0 the window title, CSI moves the cursor over earlier lines), and a bidi
// override reorders what the owner reads. So every such character is shown as a visible escape.

/** C0, DEL and C1 controls; the bidi marks, embeddings, overrides and isolates; the Unicode line separators. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this module is for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

/** Whether a character is one that visible() escapes: a control, a bidi mark, embedding, override or isolate. */
export const isUnsafeCharacter = (char: string) => UNSAFE.test(char)

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

const escapeOne = (char: string) => {
  const code = char.codePointAt(0)!
  return NAMED[char] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
}

/**
 * The text as units the owner sees: each unsafe character becomes one escape unit (`\x1b`, `\u202e`), every other
 * code point is a unit of its own, so a cut between units never splits an escape or a surrogate pair.
 * keepLineBreaks: `\n` and `\r\n` stay line breaks (as `\n`), for a message shown on its own lines; a lone `\r`
 * is escaped all the same, because it returns the cursor over what was printed.
 */
export function visibleUnits(text: string, options: { keepLineBreaks?: boolean } = {}): string[] {
  const source = options.keepLineBreaks ? text.replace(/\r\n/g, '\n') : text
  return Array.from(source, (char) => (UNSAFE.test(char) && !(options.keepLineBreaks && char === '\n') ? escapeOne(char) : char))
}

export const visible = (text: string, options: { keepLineBreaks?: boolean } = {}) => visibleUnits(text, options).join('')

// JSON.stringify escapes C0 but writes C1 controls, DEL, bidi controls and U+2028/U+2029 raw.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * JSON that a terminal shows as text: like JSON.stringify, and the characters it leaves raw written as `\u....`
 * (they can only stand inside strings, where the escape means the same character).
 */
export const jsonText = (value: unknown) =>
  JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
