import { describe, expect, test } from 'vitest'
import { decodeQrSvg } from '../../../tests/helpers/qr.ts'
import { epcPayload, qrSvg } from './girocode.ts'

const order = { holder: 'Jürgen Müller', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', amount: 490_050, reference: 'DL-2026-0042' }

describe('the EPC QR code', () => {
  test('carries the transfer as EPC069-12 lays it out: amount from the integer cents, the reference as remittance text', () => {
    expect(epcPayload(order)).toBe('BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR4900.50\n\n\nDL-2026-0042')
    expect(epcPayload({ ...order, bic: undefined, amount: 7 })).toBe('BCD\n002\n1\nSCT\n\nJürgen Müller\nDE89370400440532013000\nEUR0.07\n\n\nDL-2026-0042')
  })

  test('has no amount the format cannot carry, and no line break from a name can shift its fields', () => {
    expect(epcPayload({ ...order, amount: 0 })).toBeNull()
    expect(epcPayload({ ...order, amount: 100_000_000_000 })).toBeNull()
    expect(epcPayload({ ...order, holder: 'A\nB' })!.split('\n')).toHaveLength(11)
  })

  test('decodes with zbarimg to exactly the payload, umlauts included', () => {
    const payload = epcPayload(order)!
    const svg = qrSvg(payload, 'GiroCode')
    expect(svg).not.toMatch(/style=|<script|href=/)
    expect(decodeQrSvg(svg)).toBe(payload)
  })
})
