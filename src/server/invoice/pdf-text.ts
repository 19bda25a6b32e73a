// What the PDF prints of a text someone typed (decision 038, "Hostile text"): the PDF is a picture of the text, and a
// picture can lie. A bidi override makes "\u202Eexe.fdp" look like "pdf.exe"; a character the embedded font lacks
// comes out as another font's unrelated glyphs ("ýýý" for U+FDFD); a word wider than its column runs off the page.
// So every such character is printed by its name, and a word too wide is broken onto lines of its own. The Factur-X
// XML, the legal record, keeps the text exactly as it was frozen.
import { isUnsafeCharacter } from '../lib/escape.ts'

/** What the layout needs of a font (fontkit's, as @react-pdf/renderer loads it). */
export interface Glyphs {
  unitsPerEm: number
  hasGlyphForCodePoint(codePoint: number): boolean
  glyphForCodePoint(codePoint: number): { advanceWidth: number }
}

/** The page's font size (pdf.ts), in points. */
const FONT_SIZE = 10
/**
 * The widest a word may be, in points: below the narrower column of the page (the seller's and the buyer's, 48 % of
 * the A4 page inside its 48 pt margins: 240 pt), with room for the bold face and a row's label beside it.
 */
const WORD_WIDTH = 200

/** Unicode's own notation, "<U+202E>": no reader takes it for anything but a named character. */
const nameOf = (codePoint: number) => `<U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}>`

/**
 * The text as the PDF prints it: controls and bidi marks, embeddings, overrides and isolates named (never
 * interpreted), every character some face of the font cannot draw named, and each word wider than WORD_WIDTH
 * broken with line breaks between pieces that fit (never inside a name or before a combining mark). Only a space
 * separates words, as in the layout engine.
 */
export function printable(text: string, faces: readonly Glyphs[]): string {
  const units = Array.from(text, (char) => {
    const codePoint = char.codePointAt(0)!
    return isUnsafeCharacter(char) || !faces.every((face) => face.hasGlyphForCodePoint(codePoint)) ? nameOf(codePoint) : char
  })
  const widthOf = (unit: string) =>
    Math.max(
      ...faces.map(
        (face) => (Array.from(unit).reduce((sum, char) => sum + face.glyphForCodePoint(char.codePointAt(0)!).advanceWidth, 0) * FONT_SIZE) / face.unitsPerEm,
      ),
    )
  const words: string[][] = [[]]
  for (const unit of units) {
    if (unit === ' ') words.push([' '], [])
    else words.at(-1)!.push(unit)
  }
  return words.map((word) => brokenWord(word, widthOf)).join('')
}

/** One word, with line breaks where it would be wider than WORD_WIDTH. */
function brokenWord(units: string[], widthOf: (unit: string) => number): string {
  const lines: string[] = []
  let line = ''
  let width = 0
  for (const unit of units) {
    const unitWidth = widthOf(unit)
    // A combining mark stays with the character it marks, even if the line is a little wider then.
    if (line !== '' && width + unitWidth > WORD_WIDTH && !/^\p{M}/u.test(unit)) {
      lines.push(line)
      line = ''
      width = 0
    }
    line += unit
    width += unitWidth
  }
  lines.push(line)
  return lines.join('\n')
}
