// The link-preview image of a domain (og:image): an SVG drawn here, rendered to PNG by resvg with fonts shipped in
// an npm package, so that every machine draws the same pixels (docs/decisions/023).
import { createRequire } from 'node:module'
import type { ResvgRenderOptions } from '@resvg/resvg-js'
import { escapeHtml } from '../../shared/html.ts'
import { OG_IMAGE_SIZE } from './head.ts'

const require = createRequire(import.meta.url)
const FONT_FAMILY = 'Noto Sans'
const FONT: NonNullable<ResvgRenderOptions['font']> = {
  // No system fonts: what a machine happens to have installed must not change the image.
  loadSystemFonts: false,
  fontFiles: [
    require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  ],
  defaultFontFamily: FONT_FAMILY,
}

// The page's light colours (client/styles/base.css), for the images the server draws (this one, the icon).
export const COLOURS = { background: '#f4f6f8', text: '#16202a', muted: '#4a5868', accent: '#1f5f8b' }
const MARGIN = 90
const WIDTH = OG_IMAGE_SIZE.width - 2 * MARGIN
const NAME_SIZE = 150
const LINE_SIZE = 38
const PRICE_SIZE = 64

export interface OgImageContent {
  /** The domain as people read it. */
  name: string
  /** The price line, e.g. "4.900 €" or "Festpreis: 4.900 € inkl. MwSt.". */
  price?: string
  /** The domain's description, else the sentence that it is for sale. */
  text: string
}

/** Characters XML does not allow (control characters, lone surrogates, U+FFFE/FFFF), and line breaks, as spaces. */
// eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters, so they are what is looked for
const NOT_XML = /[\u0000-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const xmlText = (value: string) => escapeHtml(value.replace(NOT_XML, ' '))

function textElement(text: string, size: number, weight: 400 | 700, x: number, y: number, fill: string) {
  return `<text x="${x}" y="${y}" font-family="${FONT_FAMILY}" font-size="${size}" font-weight="${weight}" fill="${fill}">${xmlText(text)}</text>`
}

type ResvgModule = typeof import('@resvg/resvg-js')
// Loaded with the first image: a server that is never asked for one does not load the native addon.
let loaded: Promise<ResvgModule> | undefined
let resvg: ResvgModule

/** How wide the text is drawn, in pixels, by the fonts the image uses. */
function measure(text: string, size: number, weight: 400 | 700): number {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_IMAGE_SIZE.width * 4}" height="400">${textElement(text, size, weight, 0, 300, '#000')}</svg>`
  return new resvg.Resvg(svg, { font: FONT }).getBBox()?.width ?? 0
}

/** The largest size, up to `size`, at which a bold text fits one line. */
function fittingSize(text: string, size: number): number {
  return Math.min(size, Math.floor((size * WIDTH) / Math.max(measure(text, size, 700), 1)))
}

/** At most two lines of about the given width; a longer text ends with an ellipsis. */
function wrap(text: string, size: number): string[] {
  const words = text.replace(NOT_XML, ' ').split(/\s+/).filter(Boolean)
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    const next = line ? `${line} ${word}` : word
    if (line && measure(next, size, 400) > WIDTH) {
      lines.push(line)
      line = word
      if (lines.length === 2) break
    } else {
      line = next
    }
  }
  if (lines.length < 2 && line) lines.push(line)
  else if (lines.length === 2) lines[1] = ellipsis(lines[1]!, size)
  return lines.map((l) => (measure(l, size, 400) > WIDTH ? ellipsis(l, size) : l))
}

/** The longest start of the line that fits with an ellipsis (found by halving: each measure is a font layout). */
function ellipsis(line: string, size: number): string {
  const chars = [...line]
  let [fits, tooLong] = [0, chars.length + 1]
  while (tooLong - fits > 1) {
    const middle = Math.floor((fits + tooLong) / 2)
    if (measure(`${chars.slice(0, middle).join('')}…`, size, 400) <= WIDTH) fits = middle
    else tooLong = middle
  }
  return `${chars.slice(0, fits).join('').trimEnd()}…`
}

/** The image as SVG: the name as large as fits one line, the price, then the text. */
export async function ogImageSvg(content: OgImageContent): Promise<string> {
  resvg ??= await (loaded ??= import('@resvg/resvg-js'))
  const { width, height } = OG_IMAGE_SIZE
  const nameSize = Math.max(24, fittingSize(content.name, NAME_SIZE))
  let y = 250 + Math.round(nameSize / 3)
  const parts = [
    `<rect width="${width}" height="${height}" fill="${COLOURS.background}"/>`,
    `<rect width="${width}" height="18" fill="${COLOURS.accent}"/>`,
    textElement(content.name, nameSize, 700, MARGIN, y, COLOURS.text),
  ]
  if (content.price) {
    y += 110
    // Price terms can be long ("Verhandlungsbasis (VB): 12.000 € zzgl. MwSt.").
    parts.push(textElement(content.price, fittingSize(content.price, PRICE_SIZE), 700, MARGIN, y, COLOURS.accent))
  }
  y += 20
  for (const line of wrap(content.text, LINE_SIZE)) {
    y += 56
    parts.push(textElement(line, LINE_SIZE, 400, MARGIN, y, COLOURS.muted))
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`
}

/** The PNG, rendered on libuv's thread pool so the event loop keeps answering. */
export async function renderOgImage(svg: string): Promise<Buffer> {
  resvg ??= await (loaded ??= import('@resvg/resvg-js'))
  const image = await resvg.renderAsync(svg, { font: FONT, fitTo: { mode: 'width', value: OG_IMAGE_SIZE.width } })
  return image.asPng()
}
