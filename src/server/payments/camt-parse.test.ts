// Reading CAMT.053 statements: the versions German banks export, and a fuzz of malformed and hostile files, each
// refused with a reason and never a crash or a guess.
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { CAMT_MAX_BYTES, CamtError, camtProblemText, type CamtProblem } from './camt.ts'
import { parseCamt } from './camt-parse.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/camt')
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name))

function problemOf(input: Buffer | string): CamtProblem {
  try {
    parseCamt(input)
  } catch (error) {
    expect(error).toBeInstanceOf(CamtError)
    return (error as CamtError).problem
  }
  throw new Error('parsed')
}

const minimal = (entry: string, version = '02') =>
  `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt><Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>${entry}</Stmt></BkToCstmrStmt></Document>`
const entry = (amount: string, extra = '') => `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>${extra}</Ntry>`

describe('a CAMT.053 statement', () => {
  test('version .02 with several statements: accounts, entries, batch transactions, remittance lines as they came', () => {
    const document = parseCamt(fixture('sparkasse-053-02.xml'))
    expect(document.version).toBe(2)
    expect(document.statements.map((s) => [s.id, s.account, s.entries.length])).toEqual([
      ['camt53_20261103_1', 'DE89370400440532013000', 5],
      ['camt53_20261104_1', 'DE89370400440532013000', 3],
      ['camt53_20261104_USD', 'DE27370400440532013001', 1],
    ])
    const [first, second] = document.statements
    expect(first!.entries[0]).toMatchObject({
      amount: 490_000,
      currency: 'EUR',
      direction: 'credit',
      booked: true,
      bankRef: '2026110300001',
      bookingDate: '2026-11-03',
      bankCode: 'PMNT/RCDT/ESCT NTRF+166+9310',
    })
    expect(first!.entries[1]!.transactions[0]!.remittance).toEqual(['Kauf der Domain zweite.de, Ref. DL-2026-00', '02, erste Teilzahlung'])
    // The five XML entities and character references are read (those XML 1.0 forbids, ESC and BEL, dropped); the
    // name is text, whatever it looks like. A C1 control and a bidi override are allowed in XML: shown escaped later.
    expect(first!.entries[3]!.transactions[0]).toMatchObject({
      name: '<script>alert(1)</script> Studio',
      remittance: ['Rechnung 2026-117 Webdesign ]0;pwned \u009b2J \u202egnuhcer'],
    })
    expect(second!.entries[0]!.transactions.map((tx) => [tx.amount, tx.remittance])).toEqual([
      [150_000, ['DL 2026 0002 Restzahlung']],
      [10_000, ['Spende Sommerfest']],
    ])
    expect(second!.entries[2]!.booked).toBe(false)
  })

  test('version .08 with a namespace prefix: status in Sts/Cd, the party in Pty, the structured reference, a return with its reason', () => {
    const document = parseCamt(fixture('volksbank-053-08-return.xml'))
    expect(document.version).toBe(8)
    const [credit, returned, reversal] = document.statements[0]!.entries
    expect(credit).toMatchObject({ amount: 75_000, booked: true, transactions: [{ amount: 75_000, name: 'Petra Neumann', structured: ['DL-2026-0003'] }] })
    expect(returned).toMatchObject({
      direction: 'debit',
      reversal: false,
      bankCode: 'PMNT/RCDT/RRTN NRTI+159+9310',
      transactions: [{ returnReason: 'AC04', name: 'Hans Schmidt' }],
    })
    expect(reversal).toMatchObject({ direction: 'credit', reversal: true })
  })

  test('version .04: a batch whose transactions have their own bank references and amounts; an IBAN written with spaces', () => {
    const document = parseCamt(fixture('usd-053-04-batch.xml'))
    expect(document.statements[0]!.account).toBe('DE27370400440532013001')
    expect(document.statements[0]!.entries[0]!.transactions.map((tx) => [tx.bankRef, tx.amount, tx.currency])).toEqual([
      ['USD20261112B-1', 40_000, 'USD'],
      ['USD20261112B-2', 50_000, 'USD'],
    ])
  })

  test('a byte order mark is fine; amounts keep their exact cents', () => {
    const document = parseCamt(`\uFEFF${minimal(entry('0.29'))}`)
    expect(document.statements[0]!.entries[0]!.amount).toBe(29)
  })
})

describe('malformed and hostile statements are refused with a reason', () => {
  const valid = fixture('sparkasse-053-02.xml').toString('utf8')

  test('empty, whitespace, a ZIP archive, binary data, not UTF-8', () => {
    expect(problemOf('')).toEqual({ code: 'empty' })
    expect(problemOf(' \n\t')).toEqual({ code: 'empty' })
    expect(problemOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]))).toEqual({ code: 'zip' })
    expect(problemOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toEqual({ code: 'not-utf8' })
    expect(problemOf(Buffer.from('\u0000\u0001\u0002binary', 'utf8')).code).toBe('syntax')
    expect(problemOf(Buffer.from([0x3c, 0x61, 0x3e, 0xe4, 0x3c, 0x2f, 0x61, 0x3e]))).toEqual({ code: 'not-utf8' })
  })

  test('a file over the limit, before it is parsed', () => {
    expect(problemOf(Buffer.alloc(CAMT_MAX_BYTES + 1, 0x20))).toEqual({ code: 'too-large' })
  })

  test('truncated XML, at any place, is no statement', () => {
    for (const cut of [10, 200, 1000, valid.length / 2, valid.length - 20]) {
      const problem = problemOf(valid.slice(0, Math.floor(cut)))
      expect(['syntax', 'not-camt053']).toContain(problem.code)
    }
    expect(problemOf(valid.slice(0, valid.length / 2))).toMatchObject({ code: 'syntax', line: expect.any(Number) })
  })

  test('an entity expansion attempt ("billion laughs") and an external entity are refused before any is read', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>${minimal(entry('1.00', '<AddtlNtryInf>&lol2;</AddtlNtryInf>'))}`
    expect(problemOf(laughs)).toEqual({ code: 'doctype' })
    expect(
      problemOf(`<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${minimal(entry('1.00', '<AddtlNtryInf>&x;</AddtlNtryInf>'))}`),
    ).toEqual({ code: 'doctype' })
    // Without a DOCTYPE an undefined entity stays as it is written; nothing is looked up.
    expect(parseCamt(minimal(entry('1.00', '<AddtlNtryInf>&x;</AddtlNtryInf>'))).statements[0]!.entries[0]!.additional).toBe('&x;')
  })

  test('the wrong namespace, another message, an unknown version', () => {
    expect(problemOf(valid.replace('camt.053.001.02"', 'camt.052.001.02"'))).toEqual({ code: 'not-camt053' })
    expect(problemOf(valid.replace('xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"', ''))).toEqual({ code: 'not-camt053' })
    expect(problemOf(valid.replace('camt.053.001.02"', 'camt.053.001.99"'))).toEqual({
      code: 'version',
      detail: 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.99',
    })
    expect(problemOf('<?xml version="1.0"?><html><body>Kontoauszug</body></html>')).toEqual({ code: 'not-camt053' })
    expect(problemOf('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><Other/></Document>')).toEqual({ code: 'not-camt053' })
  })

  test('huge, negative, non-numeric and over-precise amounts, and amounts without a currency', () => {
    for (const amount of ['99999999999999999', '1e5', '-5.00', 'viertausend', '4.900,00', '', '1.001', 'NaN']) {
      expect(problemOf(minimal(entry(amount))).code, amount).toBe('amount')
    }
    expect(problemOf(minimal('<Ntry><Amt>5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>'))).toMatchObject({
      code: 'amount',
      detail: expect.stringContaining('no currency'),
    })
    expect(problemOf(minimal('<Ntry><Amt Ccy="euro">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>')).code).toBe('amount')
  })

  test('entries without an amount or an indicator, an element twice, a statement without an account', () => {
    expect(problemOf(minimal('<Ntry><CdtDbtInd>CRDT</CdtDbtInd></Ntry>'))).toMatchObject({ code: 'structure', detail: 'Stmt[1]/Ntry[1]: no Amt' })
    expect(problemOf(minimal('<Ntry><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>MAYBE</CdtDbtInd></Ntry>')).code).toBe('structure')
    expect(problemOf(minimal('<Ntry><Amt Ccy="EUR">5.00</Amt><Amt Ccy="EUR">5000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>'))).toMatchObject({
      code: 'structure',
      detail: expect.stringContaining('occurs more than once'),
    })
    expect(problemOf(minimal(entry('5.00')).replace(/<Acct>.*<\/Acct>/, ''))).toMatchObject({ code: 'structure', detail: 'Stmt[1]: no account (Acct/Id)' })
    expect(problemOf(minimal('').replace(/<Stmt>.*<\/Stmt>/, ''))).toEqual({ code: 'not-camt053' })
  })

  test('nesting 700,000 elements deep', () => {
    const deep = minimal(entry('1.00', `<AddtlNtryInf>${'<a>'.repeat(700_000)}${'</a>'.repeat(700_000)}</AddtlNtryInf>`))
    expect(problemOf(deep).code).toBe('syntax')
  })

  test('fuzz: any bytes, any cut and any mangling of a real statement either read or are refused with a CamtError', () => {
    const mangle = fc.tuple(fc.nat(valid.length), fc.nat(200), fc.string({ maxLength: 20 }))
    fc.assert(
      fc.property(mangle, ([at, remove, insert]) => {
        const text = valid.slice(0, at) + insert + valid.slice(at + remove)
        try {
          parseCamt(text)
        } catch (error) {
          if (!(error instanceof CamtError)) throw error
        }
      }),
      { numRuns: 300 },
    )
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(() => parseCamt(Buffer.from(bytes))).toThrow(CamtError)
      }),
      { numRuns: 300 },
    )
  })

  test('every problem has a German and an English sentence; the file’s detail is cut', () => {
    const problem: CamtProblem = { code: 'structure', detail: 'x'.repeat(10_000) }
    expect(camtProblemText(problem, 'de')).toMatch(/^Der Kontoauszug ist unvollständig oder fehlerhaft: x{300}$/)
    expect(camtProblemText({ code: 'syntax', detail: 'Unclosed tag', line: 7 }, 'en')).toBe('the file is not well-formed XML (line 7): Unclosed tag')
  })
})
