// Finding a deal's reference in what a bank passes on, and telling a return from a payment.
import { describe, expect, test } from 'vitest'
import type { CamtEntry, CamtTransaction } from './camt.ts'
import { isReturn, referencesIn } from './match.ts'

const KNOWN = new Set(['DL-2026-0042', 'DL-2026-1234', 'DL-2026-12345', 'DL-2027-0042'])

describe('the reference in a remittance', () => {
  test('as typed, in lower case, without hyphens, with spaces, or split where the bank cut the line', () => {
    for (const text of ['DL-2026-0042', 'Kauf dl-2026-0042 danke', 'DL20260042', 'DL 2026 0042', 'Ref DL-2026-', 'DL–2026–0042', 'DL-2026-00\n42']) {
      expect(referencesIn([text.startsWith('Ref') ? `${text}0042` : text], KNOWN), text).toEqual(['DL-2026-0042'])
    }
  })

  test('as written first: DL-2026-12345 is not DL-2026-1234, and "DL-2026-1234 5 Raten" is not DL-2026-12345', () => {
    expect(referencesIn(['DL-2026-12345'], KNOWN)).toEqual(['DL-2026-12345'])
    expect(referencesIn(['DL-2026-1234 5 Raten'], KNOWN)).toEqual(['DL-2026-1234'])
    expect(referencesIn(['DL-2026-1234, Rest folgt'], KNOWN)).toEqual(['DL-2026-1234'])
    // Split by the bank inside the number: the longest known one at that place.
    expect(referencesIn(['DL-2026-123\n45'], KNOWN)).toEqual(['DL-2026-12345'])
  })

  test("an instalment plan's rate by its own reference, also without hyphens or split; the plan's bare reference is none of them", () => {
    const rates = new Set(['DL-2026-0042', 'DL-2026-0077-R01', 'DL-2026-0077-R02', 'DL-2026-0077-R12'])
    for (const text of ['DL-2026-0077-R02', 'Rate 2 dl-2026-0077-r02', 'DL 2026 0077 R02', 'DL20260077R02', 'DL-2026-0077-\nR02', 'DL-2026-00\n77-R02']) {
      expect(referencesIn([text], rates), text).toEqual(['DL-2026-0077-R02'])
    }
    expect(referencesIn(['DL-2026-0077-R12 Schlussrate'], rates)).toEqual(['DL-2026-0077-R12'])
    // The rate number must be one the plan has, and the deal's bare reference names no rate.
    expect(referencesIn(['DL-2026-0077-R05'], rates)).toEqual([])
    expect(referencesIn(['DL-2026-0077'], rates)).toEqual([])
    expect(referencesIn(['DL-2026-0077-R012'], rates)).toEqual([])
    // A deal paid at once is found as before, also when a word starting with R follows.
    expect(referencesIn(['DL-2026-0042 Rechnung'], rates)).toEqual(['DL-2026-0042'])
  })

  test('an unknown reference, none, or several', () => {
    expect(referencesIn(['DL-2026-0043'], KNOWN)).toEqual([])
    expect(referencesIn(['Miete November', null, ''], KNOWN)).toEqual([])
    expect(referencesIn(['DL-2026-0042 und DL-2027-0042'], KNOWN).sort()).toEqual(['DL-2026-0042', 'DL-2027-0042'])
  })

  test('only as a whole word: no letter or digit right before or after it, whatever separates it from the rest', () => {
    const deals = new Set(['DL-2026-0001', 'DL-2026-0010', 'DL-2026-10000'])
    for (const text of [
      'XDL-2026-0010Y',
      'XDL-2026-0010',
      'DL-2026-0010Y',
      'RechnungDL-2026-0010abc',
      '7DL-2026-0010',
      'DL-2026-0010ä',
      'DL-2026-00100',
      'DL-2026-001000',
    ]) {
      expect(referencesIn([text], deals), text).toEqual([])
    }
    for (const text of [
      'Zahlung DL-2026-0010 Danke',
      'DL-2026-0010/Rg',
      'Rg/DL-2026-0010',
      'Rest,DL-2026-0010,Danke',
      '(DL-2026-0010)',
      'Ref.DL-2026-0010.',
      "'DL-2026-0010'",
      'Kauf+DL-2026-0010?',
      'Zahlung\nDL-2026-0010\nDanke',
      'Zahlung:dl.2026.0010',
      'DL_2026_0010',
    ]) {
      expect(referencesIn([text], deals), text).toEqual(['DL-2026-0010'])
    }
    expect(referencesIn(['Kauf DL-2026-10000, Danke'], deals)).toEqual(['DL-2026-10000'])
  })

  test('the number exactly as the deal has it: four digits, more only without a leading zero', () => {
    const deals = new Set(['DL-2026-0001', 'DL-2026-0010', 'DL-2026-0100', 'DL-2026-1000'])
    for (const text of ['DL-2026-00010', 'DL-2026-00001', 'DL-2026-000010', 'DL-2026-010', 'DL-2026-1', 'DL2026000010', 'DL-2026-00\n010']) {
      expect(referencesIn([text], deals), text).toEqual([])
    }
    expect(referencesIn(['DL-2026-0100'], deals)).toEqual(['DL-2026-0100'])
  })

  test('the structured reference, given first, decides over the free text', () => {
    expect(referencesIn(['DL-2027-0042', 'DL-2026-0042'], KNOWN)).toEqual(['DL-2027-0042'])
  })
})

describe('a return', () => {
  const entry = (fields: Partial<CamtEntry> = {}): CamtEntry => ({
    index: 1,
    entryRef: null,
    bankRef: null,
    amount: 100,
    currency: 'EUR',
    direction: 'debit',
    reversal: false,
    booked: true,
    bookingDate: null,
    valueDate: null,
    bankCode: null,
    additional: null,
    transactions: [],
    ...fields,
  })
  const tx = (fields: Partial<CamtTransaction> = {}): CamtTransaction => ({
    amount: null,
    currency: null,
    bankRef: null,
    endToEndId: null,
    remittance: [],
    structured: [],
    name: null,
    returnReason: null,
    additional: null,
    ...fields,
  })

  test('is told by the reversal indicator, a return reason, the ISO sub-family or the German GVC', () => {
    expect(isReturn(entry({ reversal: true }), tx())).toBe(true)
    expect(isReturn(entry(), tx({ returnReason: 'AC04' }))).toBe(true)
    expect(isReturn(entry({ bankCode: 'PMNT/RCDT/RRTN' }), tx())).toBe(true)
    expect(isReturn(entry({ bankCode: 'PMNT/IDDT/UPDD NDDT+109+9310' }), tx())).toBe(true)
    expect(isReturn(entry({ bankCode: 'NRTI+159+9310' }), tx())).toBe(true)
  })

  test('an ordinary transfer or standing order is none', () => {
    expect(isReturn(entry({ bankCode: 'PMNT/RCDT/ESCT NTRF+166+9310', direction: 'credit' }), tx())).toBe(false)
    expect(isReturn(entry({ bankCode: 'PMNT/ICDT/STDO NSTO+116+9310' }), tx())).toBe(false)
  })
})
