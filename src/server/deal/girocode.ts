// The EPC QR code ("GiroCode", EPC069-12, version 002) of a SEPA transfer: German, Austrian, Dutch … banking apps
// read holder, IBAN, amount and reference from it. Drawn here as an SVG of one path (qrcode-generator), so the page
// makes no request anywhere for it.
import qrcode from 'qrcode-generator'
import { decimalOf } from '../lib/money.ts'

export interface TransferOrder {
  holder: string
  iban: string
  bic?: string | undefined
  /** Minor units of EUR. */
  amount: number
  /** The remittance text: the deal's reference. */
  reference: string
}

/** The largest amount the format allows: EUR 999,999,999.99. */
const EPC_MAX = 99_999_999_999

/**
 * The payload: BCD, 002, 1 (UTF-8), SCT, BIC, name, IBAN, EUR amount, purpose (empty), structured reference (empty:
 * ours is no ISO 11649 RF reference), then the unstructured remittance text. Null when the amount does not fit.
 */
export function epcPayload(order: TransferOrder): string | null {
  if (!Number.isSafeInteger(order.amount) || order.amount < 1 || order.amount > EPC_MAX) return null
  // Line breaks would shift every field after them.
  const field = (text: string) => text.replace(/[\r\n]+/g, ' ').trim()
  return [
    'BCD',
    '002',
    '1',
    'SCT',
    order.bic ?? '',
    field(order.holder).slice(0, 70),
    order.iban,
    `EUR${decimalOf(order.amount, 'EUR')}`,
    '',
    '',
    field(order.reference).slice(0, 140),
  ].join('\n')
}

/** The code as an SVG: error correction M as EPC069-12 asks, a quiet zone of four modules, black on white. */
export function qrSvg(text: string, title: string): string {
  const code = qrcode(0, 'M')
  // Byte mode carries the UTF-8 bytes, as the payload's character set 1 says (the library takes one char per byte).
  code.addData(Buffer.from(text, 'utf8').toString('latin1'), 'Byte')
  code.make()
  const count = code.getModuleCount()
  const size = count + 8
  let path = ''
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) if (code.isDark(row, col)) path += `M${col + 4} ${row + 4}h1v1h-1z`
  }
  const safeTitle = title.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`)
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="240" height="240" role="img" aria-label="${safeTitle}" shape-rendering="crispEdges"><title>${safeTitle}</title><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
}
