// Reads a CAMT.053 file with fast-xml-parser (docs/decisions/040). Nothing in the file is trusted: no DOCTYPE (so no
// entity of the file's own is ever expanded), a size limit before parsing, a well-formedness check, every amount read
// from its digits, and an element that may occur once occurring twice is an error rather than a guess.
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { isCurrencyCode, parseMinor } from './amount.ts'
import { CAMT_MAX_BYTES, CamtError, type CamtDocument, type CamtEntry, type CamtStatement, type CamtTransaction } from './camt.ts'

/** Elements that may repeat; every other element occurring twice where it is read is an error. */
const REPEATED = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'AddtlRmtInf', 'Bal'])

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Every value stays the text it was: amounts are read from their digits, references keep their leading zeros.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The five XML entities and character references; a DOCTYPE (with entities of the file's own) is refused before.
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name),
})

type Node = Record<string, unknown>

const structure = (detail: string): never => {
  throw new CamtError({ code: 'structure', detail })
}

/** A child element that occurs at most once, as its node (or its text, for a leaf). */
function child(node: unknown, name: string, path: string): unknown {
  if (node === null || typeof node !== 'object') return undefined
  const value = (node as Node)[name]
  if (Array.isArray(value) && !REPEATED.has(name)) structure(`${path}/${name} occurs more than once`)
  return value
}

function at(node: unknown, path: string[], where: string): unknown {
  let current = node
  for (const name of path) {
    current = child(current, name, where)
    if (current === undefined) return undefined
  }
  return current
}

/** The text of a leaf (an element with attributes has it as #text); undefined when absent; an element is an error. */
function textOf(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string') return value
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const text = (value as Node)['#text']
    if (text === undefined) return ''
    if (typeof text === 'string') return text
  }
  return structure(`${where} is not a text`)
}

const textAt = (node: unknown, path: string[], where: string) => {
  const text = textOf(at(node, path, where), `${where}/${path.join('/')}`)?.trim()
  return text === undefined || text === '' ? null : text
}

const list = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])

/** An Amt element: its value in minor units of its Ccy. */
function amountOf(node: unknown, where: string): { amount: number; currency: string } {
  const currency = typeof node === 'object' && node !== null ? (node as Node)['@Ccy'] : undefined
  if (typeof currency !== 'string' || !isCurrencyCode(currency)) throw new CamtError({ code: 'amount', detail: `${where}: no currency (Ccy) such as EUR` })
  const text = textOf(node, where) ?? ''
  const amount = parseMinor(text, currency)
  if (typeof amount !== 'number') {
    const why = { format: 'not a decimal such as 4900.00', precision: `more decimals than ${currency} has`, range: 'too large' }[amount]
    throw new CamtError({ code: 'amount', detail: `${where}: "${text.slice(0, 40)}" is ${why}` })
  }
  return { amount, currency }
}

const dateOf = (node: unknown, where: string) => {
  const text = textAt(node, ['Dt'], where) ?? textAt(node, ['DtTm'], where)
  return text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null
}

function bankCodeOf(node: unknown, where: string): string | null {
  const family = [textAt(node, ['Domn', 'Cd'], where), textAt(node, ['Domn', 'Fmly', 'Cd'], where), textAt(node, ['Domn', 'Fmly', 'SubFmlyCd'], where)]
  const proprietary = textAt(node, ['Prtry', 'Cd'], where)
  const parts = [family.every((part) => part !== null) ? family.join('/') : null, proprietary].filter((part) => part !== null)
  return parts.length === 0 ? null : parts.join(' ')
}

function transactionOf(node: unknown, where: string): CamtTransaction {
  // camt.053.001.02 has the amount in AmtDtls/TxAmt/Amt; later versions also (or only) in Amt.
  const amountNode = child(node, 'Amt', where) ?? at(node, ['AmtDtls', 'TxAmt', 'Amt'], where)
  const amount = amountNode === undefined ? null : amountOf(amountNode, `${where}/Amt`)
  const remittance = list(at(node, ['RmtInf', 'Ustrd'], where)).map((line) => textOf(line, `${where}/RmtInf/Ustrd`) ?? '')
  const structured: string[] = []
  for (const strd of list(at(node, ['RmtInf', 'Strd'], where))) {
    const ref = textAt(strd, ['CdtrRefInf', 'Ref'], `${where}/RmtInf/Strd`)
    if (ref) structured.push(ref)
    for (const line of list(child(strd, 'AddtlRmtInf', where))) structured.push(textOf(line, `${where}/RmtInf/Strd/AddtlRmtInf`) ?? '')
  }
  // A credit's other party is its debtor, a debit's its creditor; version .02 has Nm directly, later ones in Pty.
  const name =
    ['Dbtr', 'Cdtr']
      .map((party) => textAt(node, ['RltdPties', party, 'Nm'], where) ?? textAt(node, ['RltdPties', party, 'Pty', 'Nm'], where))
      .find((n) => n !== null) ?? null
  return {
    amount: amount?.amount ?? null,
    currency: amount?.currency ?? null,
    bankRef: textAt(node, ['Refs', 'AcctSvcrRef'], where),
    endToEndId: textAt(node, ['Refs', 'EndToEndId'], where),
    remittance,
    structured,
    name,
    returnReason: textAt(node, ['RtrInf', 'Rsn', 'Cd'], where) ?? (at(node, ['RtrInf'], where) !== undefined ? 'RtrInf' : null),
    additional: textAt(node, ['AddtlTxInf'], where),
  }
}

function entryOf(node: unknown, index: number, where: string): CamtEntry {
  const amountNode = child(node, 'Amt', where)
  if (amountNode === undefined) structure(`${where}: no Amt`)
  const { amount, currency } = amountOf(amountNode, `${where}/Amt`)
  const indicator = textAt(node, ['CdtDbtInd'], where)
  if (indicator !== 'CRDT' && indicator !== 'DBIT') structure(`${where}: CdtDbtInd is "${indicator ?? ''}", not CRDT or DBIT`)
  // .02 writes <Sts>BOOK</Sts>, later versions <Sts><Cd>BOOK</Cd></Sts>.
  const statusNode = child(node, 'Sts', where)
  const status = typeof statusNode === 'object' && statusNode !== null && 'Cd' in statusNode ? textAt(statusNode, ['Cd'], where) : textAt(node, ['Sts'], where)
  const transactions = list(child(node, 'NtryDtls', where)).flatMap((details, d) =>
    list(child(details, 'TxDtls', where)).map((tx, t) => transactionOf(tx, `${where}/NtryDtls[${d + 1}]/TxDtls[${t + 1}]`)),
  )
  return {
    index,
    entryRef: textAt(node, ['NtryRef'], where),
    bankRef: textAt(node, ['AcctSvcrRef'], where),
    amount,
    currency,
    direction: indicator === 'CRDT' ? 'credit' : 'debit',
    reversal: textAt(node, ['RvslInd'], where) === 'true',
    booked: status === 'BOOK',
    bookingDate: dateOf(child(node, 'BookgDt', where), `${where}/BookgDt`),
    valueDate: dateOf(child(node, 'ValDt', where), `${where}/ValDt`),
    bankCode: bankCodeOf(child(node, 'BkTxCd', where), `${where}/BkTxCd`),
    additional: textAt(node, ['AddtlNtryInf'], where),
    transactions:
      transactions.length > 0
        ? transactions
        : [{ amount: null, currency: null, bankRef: null, endToEndId: null, remittance: [], structured: [], name: null, returnReason: null, additional: null }],
  }
}

/** The namespace of the root element, from its start tag (the parser drops prefixes and their declarations). */
function rootNamespace(text: string): { name: string; namespace: string | null } | null {
  const start = /<(?!\?|!)(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)([^>]*)>/.exec(text)
  if (!start) return null
  const [, prefix, name, attributes] = start
  const declaration = new RegExp(`\\bxmlns${prefix ? `:${prefix.replace(/[.-]/g, '\\$&')}` : ''}\\s*=\\s*(["'])([^"']*)\\1`).exec(attributes!)
  return { name: name!, namespace: declaration?.[2] ?? null }
}

/** Reads a statement file; throws CamtError with a reason the owner can act on. */
export function parseCamt(input: Buffer | string): CamtDocument {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input
  if (bytes.length > CAMT_MAX_BYTES) throw new CamtError({ code: 'too-large' })
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) throw new CamtError({ code: 'zip' })
  let text: string
  try {
    text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new CamtError({ code: 'not-utf8' })
  }
  text = text.replace(/^\uFEFF/, '')
  if (text.trim() === '') throw new CamtError({ code: 'empty' })
  // No CAMT file has one; without it no entity beyond XML's own five can be defined, let alone expanded.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new CamtError({ code: 'doctype' })
  // eslint-disable-next-line no-control-regex -- control characters are what XML 1.0 forbids
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(text)) throw new CamtError({ code: 'syntax', detail: 'control characters (binary data?)' })
  const valid = XMLValidator.validate(text)
  if (valid !== true) throw new CamtError({ code: 'syntax', detail: valid.err.msg, line: valid.err.line })
  const root = rootNamespace(text)
  if (root?.name !== 'Document') throw new CamtError({ code: 'not-camt053' })
  const version = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.(\d{2})$/.exec(root.namespace ?? '')
  if (!version || Number(version[1]) < 2 || Number(version[1]) > 13) {
    throw new CamtError(root.namespace && /camt\.053/.test(root.namespace) ? { code: 'version', detail: root.namespace } : { code: 'not-camt053' })
  }
  let document: unknown
  try {
    document = parser.parse(text)
  } catch (error) {
    // The parser's own limits (nesting, entity expansion) end up here.
    throw new CamtError({ code: 'syntax', detail: (error as Error).message })
  }
  const message = at(document, ['Document', 'BkToCstmrStmt'], '')
  if (message === undefined || typeof message !== 'object') throw new CamtError({ code: 'not-camt053' })
  const statements = list(child(message, 'Stmt', 'BkToCstmrStmt')).map((node, s): CamtStatement => {
    const where = `Stmt[${s + 1}]`
    const account = (textAt(node, ['Acct', 'Id', 'IBAN'], where) ?? textAt(node, ['Acct', 'Id', 'Othr', 'Id'], where))?.replace(/\s+/g, '').toUpperCase()
    if (!account) return structure(`${where}: no account (Acct/Id)`)
    return {
      id: textAt(node, ['Id'], where) ?? String(s + 1),
      account,
      entries: list(child(node, 'Ntry', where)).map((entry, e) => entryOf(entry, e + 1, `${where}/Ntry[${e + 1}]`)),
    }
  })
  if (statements.length === 0) structure('BkToCstmrStmt has no Stmt')
  return { version: Number(version[1]), statements }
}
