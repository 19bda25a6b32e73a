// A bank statement as German online banking exports it: CAMT.053 (ISO 20022 "BankToCustomerStatement", versions
// camt.053.001.02 to .13): what matching needs of it, and why a file is refused. Reading the file is camt-parse.ts,
// loaded only when a statement is imported, with its XML parser (decision 040; decision 034 on what loads at start).

/** The largest statement taken: a month of a busy business account is well under 1 MB. */
export const CAMT_MAX_BYTES = 5 * 1024 * 1024

/** Why a file is no statement this reads; `detail` is from the file or the parser, shown as text. */
export type CamtProblem =
  | { code: 'empty' | 'too-large' | 'zip' | 'not-utf8' | 'doctype' | 'not-camt053' }
  | { code: 'syntax'; detail: string; line?: number }
  | { code: 'version'; detail: string }
  | { code: 'structure'; detail: string }
  | { code: 'amount'; detail: string }

export class CamtError extends Error {
  override name = 'CamtError'
  readonly problem: CamtProblem
  constructor(problem: CamtProblem) {
    super(camtProblemText(problem, 'en'))
    this.problem = problem
  }
}

const PROBLEM_TEXT: Record<CamtProblem['code'], { de: string; en: string }> = {
  empty: { de: 'Die Datei ist leer.', en: 'the file is empty' },
  'too-large': { de: `Die Datei ist größer als ${CAMT_MAX_BYTES / 1024 / 1024} MB.`, en: `the file is larger than ${CAMT_MAX_BYTES / 1024 / 1024} MB` },
  zip: {
    de: 'Das ist ein ZIP-Archiv: bitte entpacken und die XML-Dateien einzeln importieren.',
    en: 'this is a ZIP archive: unpack it and import its XML files one by one',
  },
  'not-utf8': { de: 'Die Datei ist kein UTF-8-Text (CAMT-Dateien sind UTF-8).', en: 'the file is not UTF-8 text (CAMT files are UTF-8)' },
  doctype: {
    de: 'Die Datei enthält eine DOCTYPE-Deklaration; CAMT-Dateien haben keine, sie wird nicht gelesen.',
    en: 'the file has a DOCTYPE declaration; CAMT files have none, and it is not read',
  },
  'not-camt053': { de: 'Das ist kein CAMT.053-Kontoauszug (Document mit BkToCstmrStmt).', en: 'this is no CAMT.053 statement (a Document with BkToCstmrStmt)' },
  syntax: { de: 'Die Datei ist kein gültiges XML', en: 'the file is not well-formed XML' },
  version: { de: 'Unbekannter Namensraum; gelesen werden camt.053.001.02 bis .13', en: 'unknown namespace; camt.053.001.02 to .13 are read' },
  structure: { de: 'Der Kontoauszug ist unvollständig oder fehlerhaft', en: 'the statement is incomplete or malformed' },
  amount: { de: 'Ein Betrag ist ungültig', en: 'an amount is invalid' },
}

/** The problem as the console (de) or the CLI (en) says it; the detail is quoted as it came. */
export function camtProblemText(problem: CamtProblem, language: 'de' | 'en'): string {
  const text = PROBLEM_TEXT[problem.code][language]
  if (!('detail' in problem)) return text
  const line = 'line' in problem && problem.line !== undefined ? (language === 'de' ? ` (Zeile ${problem.line})` : ` (line ${problem.line})`) : ''
  return `${text}${line}: ${problem.detail.slice(0, 300)}`
}

export interface CamtTransaction {
  /** Minor units; null when the entry gives none for it (a single booking: the entry's amount is its amount). */
  amount: number | null
  currency: string | null
  /** The bank's own reference of the transaction (Refs/AcctSvcrRef). */
  bankRef: string | null
  endToEndId: string | null
  /** The remittance lines (RmtInf/Ustrd) as they came, in order. */
  remittance: string[]
  /** Structured remittance: creditor references (CdtrRefInf/Ref) and additional lines (AddtlRmtInf). */
  structured: string[]
  /** The other party: the debtor of a credit, the creditor of a debit. */
  name: string | null
  /** A return's reason code (RtrInf/Rsn/Cd), when the bank gives one. */
  returnReason: string | null
  additional: string | null
}

export interface CamtEntry {
  /** Position in its statement, from 1. */
  index: number
  entryRef: string | null
  bankRef: string | null
  amount: number
  currency: string
  direction: 'credit' | 'debit'
  /** RvslInd: the booking reverses an earlier one. */
  reversal: boolean
  /** BOOK; pending (PDNG) and informational (INFO) entries are not money received. */
  booked: boolean
  bookingDate: string | null
  valueDate: string | null
  /** The bank transaction code (Domn/Fmly/SubFmly, or the German GVC in Prtry: "NTRF+166+…"). */
  bankCode: string | null
  additional: string | null
  /** At least one: an entry without TxDtls is one transaction of the entry's amount. */
  transactions: CamtTransaction[]
}

export interface CamtStatement {
  id: string
  /** IBAN (upper case, no spaces), or the account's other id. */
  account: string
  entries: CamtEntry[]
}

export interface CamtDocument {
  /** 2 for camt.053.001.02, … */
  version: number
  statements: CamtStatement[]
}
