// How the domain name, the page's large title, is laid out without script: its size is chosen from the name itself
// (rendered once per host on the server, the same on hydration), so that it fits the screen and never breaks inside
// a label, even on a 320 px phone. The style sheet scales the title to its container: font-size = 100cqi / fit,
// at most 3.5rem (client/styles/intro.css, `.fit-N`). Decision 024 has the figures.

/** The widths, in em, the style sheet has a class for: a name is set at the first step at least as wide as it. */
export const FIT_STEPS = [5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 21, 24, 28, 32, 37, 43, 50, 58, 70] as const

/**
 * The widest a name (in em) may be to stay on one line at any screen width while still large enough to read on the
 * narrowest phone (decision 024). A wider name wraps after a dot or hyphen at that size, and only a label wider than
 * this makes the title smaller still.
 */
const ONE_LINE = 12
/** What is measured is taken this much wider, for fonts wider than the one measured. */
const MARGIN = 1.05

// Widths in em at the title's weight and letter spacing, measured in DejaVu Sans Bold (what system-ui is on Linux,
// and wider than Segoe UI, Roboto or San Francisco): the widest likely font, so that a title comes out too small
// rather than too large.
const WIDTH: Record<string, number> = {
  i: 0.33,
  j: 0.33,
  l: 0.33,
  '.': 0.36,
  '-': 0.4,
  f: 0.48,
  r: 0.48,
  t: 0.48,
  c: 0.58,
  s: 0.58,
  z: 0.58,
  a: 0.66,
  e: 0.66,
  k: 0.66,
  v: 0.66,
  x: 0.66,
  y: 0.66,
  w: 0.91,
  m: 1.03,
}
const LATIN = 0.7
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u
const OTHER = 0.9

function charWidth(char: string): number {
  // "ü" is as wide as "u": the first code point of its decomposition.
  const base = char.normalize('NFD').charAt(0)
  if (/\p{M}/u.test(base)) return 0
  const known = WIDTH[base]
  if (known !== undefined) return known
  if (/[a-z0-9]/.test(base)) return LATIN
  return WIDE.test(char) ? 1 : OTHER
}

const widthOf = (text: string) => [...text].reduce((sum, char) => sum + charWidth(char), 0) * MARGIN

/** Where a long name may wrap: after a dot or a hyphen, never inside a label. */
function nameParts(name: string): string[] {
  return name.match(/[^.-]+[.-]*|[.-]+/g) ?? [name]
}

/**
 * The title's layout: `fit`, the step of its size, and `parts`, the pieces between which it may wrap (the whole
 * name when it fits on one line).
 */
export function nameLayout(name: string): { fit: number; parts: string[] } {
  const whole = widthOf(name)
  if (whole <= ONE_LINE) return { fit: stepFor(whole), parts: [name] }
  const parts = nameParts(name)
  return { fit: stepFor(Math.max(ONE_LINE, ...parts.map(widthOf))), parts }
}

const stepFor = (width: number) => FIT_STEPS.find((step) => step >= width) ?? FIT_STEPS[FIT_STEPS.length - 1]!
