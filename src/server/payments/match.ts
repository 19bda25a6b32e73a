// Matching a statement's bookings to what is to be paid (docs/deals.md, decision 040): by the payment reference found
// in the remittance text (or the structured reference, or the end-to-end id), and by amount and currency. Pure: the
// store's part (what is recorded, what each target has received) comes in, the preview goes out.
import { createHash } from 'node:crypto'
import type { BankEntryClass, BankEntryItem, BankEntryReason, BankStatementPreview, PaymentTargetOutcome } from '../../shared/payments-api.ts'
import type { NewBankPayment } from '../store/tables/bank-payments.ts'
import type { CamtDocument, CamtEntry, CamtStatement, CamtTransaction } from './camt.ts'

/**
 * Something a payment can be for, found by its reference: today a deal; an instalment plan's rate (each with its own
 * reference) becomes another kind with the same fields.
 */
export interface PaymentTarget {
  reference: string
  dealId: number
  domain: string
  /** Minor units due for this reference. */
  amount: number
  currency: string
  /** The deal's state: only one awaiting payment is marked paid. */
  status: string
  /** Net minor units recorded for it before this import (payments less returns). */
  received: number
  /** An instalment plan's rate (decision 042): its number, 0 the down payment; absent for a deal paid at once. */
  rate?: number
}

/** A booking to record when the import is applied: the idempotency key and what the ledger keeps (its table's row). */
type BankRecord = NewBankPayment

/**
 * ISO bank transaction sub-families (reversal due to a payment return, an unpaid direct debit, a payment reversal,
 * a cancellation request) and German GVCs (in Prtry, "NRTI+159+…": 109 Rücklastschrift, 159 Rücküberweisung) that
 * say money came back. Only these: a code taken for a return would hide a real payment from matching.
 */
const RETURN_SUBFAMILIES = new Set(['RRTN', 'UPDD', 'PRDD', 'RPCR'])
const RETURN_GVC = new Set(['109', '159'])

export function isReturn(entry: CamtEntry, tx: CamtTransaction): boolean {
  if (entry.reversal || tx.returnReason !== null) return true
  const code = entry.bankCode ?? ''
  const subfamily = /\b[A-Z]{4}\/[A-Z]{4}\/([A-Z]{4})\b/.exec(code)?.[1]
  const gvc = /\b[A-Z]{4}\+(\d{3})\b/.exec(code)?.[1]
  return (subfamily !== undefined && RETURN_SUBFAMILIES.has(subfamily)) || (gvc !== undefined && RETURN_GVC.has(gvc))
}

/**
 * The key that makes importing a booking twice (the same file, or a day's statement and the month's) change nothing:
 * the account and the bank's own reference of the transaction (AcctSvcrRef), else the entry's with the
 * transaction's place in it, else a digest of what the booking says. NtryRef is not used: it numbers the entries
 * of one statement, and the month's statement numbers them anew.
 */
export function bankKeyOf(statement: CamtStatement, entry: CamtEntry, tx: CamtTransaction, txIndex: number): string {
  const one = entry.transactions.length === 1
  let source: string
  if (tx.bankRef !== null && (one || tx.bankRef !== entry.bankRef)) source = `tx\n${tx.bankRef}`
  else if (entry.bankRef !== null) source = `entry\n${entry.bankRef}\n${txIndex}`
  else {
    source = [
      'content',
      entry.bookingDate,
      entry.valueDate,
      entry.direction,
      entry.reversal,
      entry.amount,
      entry.currency,
      txIndex,
      tx.amount,
      tx.currency,
      tx.endToEndId,
      tx.name,
      ...tx.remittance,
      '',
      ...tx.structured,
    ].join('\n')
  }
  return createHash('sha256').update(`${statement.account}\n${source}`).digest('hex')
}

/**
 * References are "DL-2026-0042", a rate's "DL-2026-0042-R03" (decision 042): the deal's number with at least four
 * digits, so 0001 to 9999, then 10000 without a leading zero (store/deal-record.ts). People and banks write them
 * in lower case, with spaces or dots or none between the parts, and banks cut lines inside them. A reference counts
 * only as a whole word: neither letter nor digit right before or after it, so "XDL-2026-0010Y" and "DL-2026-00100"
 * are no deal 10, and "DL-2026-00010" (a leading zero too many) is no deal at all.
 */
const SEPARATOR = '[\\s\\-\u2010\u2011\u2013\u2014_./]{0,3}'
// Inside the year and the number only a line break: the bank's cut (or the end of the reference, see below).
const digits = (count: string) => `\\d(?:(?:\\r?\\n)?\\d)${count}`
const WRITTEN = new RegExp(`(?<![\\p{L}\\p{N}])DL${SEPARATOR}(${digits('{3}')})${SEPARATOR}(${digits('*')})(?:${SEPARATOR}R(\\d{2}))?(?![\\p{L}\\p{N}])`, 'gu')
const NUMBER = /^(?:\d{4}|[1-9]\d{4,})$/

/**
 * The references a text names, in the exact format, each with the forms it may have: when the bank cut a line inside
 * the number, the cut may also have been the end of the reference (its next line then starts with a digit), so every
 * such place gives a shorter one, after the whole.
 */
function writtenIn(text: string): { rate?: string; forms: string[] }[] {
  const found: { rate?: string; forms: string[] }[] = []
  for (const [, year, number, rate] of text.toUpperCase().matchAll(WRITTEN)) {
    const parts = number!.split(/\r?\n/)
    const forms: string[] = []
    for (let count = parts.length; count >= 1; count--) {
      const candidate = parts.slice(0, count).join('')
      if (NUMBER.test(candidate)) forms.push(`DL-${year!.replace(/\r?\n/g, '')}-${candidate}`)
    }
    // A rate's part follows the whole number only: after a shorter form it would stand on another line.
    const whole = NUMBER.test(parts.join(''))
    if (forms.length > 0) found.push({ ...(rate !== undefined && whole && { rate }), forms })
  }
  return found
}

/**
 * The references in these texts: at each place the first known of its forms, a rate's reference when a known rate is
 * named (without the rate's part it is the deal's, of a deal paid at once). Empty when none is known; every distinct
 * one when a text names several. The first text that names one decides: the structured reference is given before the
 * free text.
 */
export function referencesIn(texts: readonly (string | null)[], known: ReadonlySet<string>): string[] {
  for (const text of texts) {
    if (!text) continue
    const found = new Set<string>()
    for (const { rate, forms } of writtenIn(text)) {
      if (rate !== undefined && known.has(`${forms[0]}-R${rate}`)) found.add(`${forms[0]}-R${rate}`)
      else {
        const reference = forms.find((form) => known.has(form))
        if (reference !== undefined) found.add(reference)
      }
    }
    if (found.size > 0) return [...found]
  }
  return []
}

const looksLikeReference = (text: string) => writtenIn(text).length > 0

/** The remittance as the owner reads it: the bank's lines joined, shown as text everywhere. */
const displayText = (entry: CamtEntry, tx: CamtTransaction) =>
  [tx.remittance.join(''), ...tx.structured, tx.additional ?? '', entry.additional ?? '']
    .filter((part) => part.trim() !== '')
    .join(' · ')
    .slice(0, 500)

export interface MatchInput {
  document: CamtDocument
  /** Every target by its reference. */
  targets: ReadonlyMap<string, PaymentTarget>
  /** The keys recorded before, with the deal each went to. */
  recorded: ReadonlyMap<string, number | null>
}

export interface MatchResult {
  preview: BankStatementPreview
  records: BankRecord[]
}

const LISTED_MAX = 2000

export function matchStatement({ document, targets, recorded }: MatchInput): MatchResult {
  const known = new Set(targets.keys())
  const items: BankEntryItem[] = []
  const records: BankRecord[] = []
  const counts: Record<BankEntryClass, number> = { matched: 0, partial: 0, overpaid: 0, unmatched: 0, applied: 0, return: 0 }
  let ignored = 0
  const seen = new Set<string>()
  /** Net minor units this import adds per reference, in the file's order. */
  const added = new Map<string, number>()
  const touched = new Set<string>()

  for (const statement of document.statements) {
    for (const entry of statement.entries) {
      entry.transactions.forEach((tx, txIndex) => {
        const single = entry.transactions.length === 1
        const amount = tx.amount ?? (single ? entry.amount : null)
        const currency = tx.currency ?? (single ? entry.currency : null)
        const returned = isReturn(entry, tx)
        if (!entry.booked || (entry.direction === 'debit' && !returned)) {
          ignored++
          return
        }
        const key = bankKeyOf(statement, entry, tx, txIndex)
        // The bank's lines joined at a line break, which may be a cut inside a reference or the end of a word.
        const texts = [...tx.structured, tx.remittance.join('\n'), tx.endToEndId === 'NOTPROVIDED' ? null : tx.endToEndId, tx.additional, entry.additional]
        const references = referencesIn(texts, known)
        const target = references.length === 1 ? targets.get(references[0]!)! : null
        const item: BankEntryItem = {
          class: 'unmatched',
          statement: statement.id,
          account: statement.account,
          entry: entry.index,
          transaction: entry.transactions.length > 1 ? txIndex + 1 : null,
          bookingDate: entry.bookingDate,
          bankRef: tx.bankRef ?? entry.bankRef,
          direction: entry.direction,
          amount,
          currency,
          name: tx.name === null ? null : tx.name.slice(0, 200),
          text: displayText(entry, tx),
          reference: target?.reference ?? null,
          dealId: target?.dealId ?? null,
          domain: target?.domain ?? null,
          due: target ? { amount: target.amount, currency: target.currency } : null,
        }
        const push = (cls: BankEntryClass, reason?: BankEntryReason) => {
          counts[cls]++
          if (items.length < LISTED_MAX) items.push({ ...item, class: cls, ...(reason && { reason }) })
        }
        const previous = recorded.get(key)
        if (previous !== undefined || seen.has(key)) {
          if (target) touched.add(target.reference)
          return push('applied', seen.has(key) ? 'twice-in-file' : undefined)
        }
        seen.add(key)
        if (returned) {
          // A return never marks anything paid. One of a credit (money leaving) is recorded against its deal, so
          // that what the deal has received drops and the owner sees it; but only up to what the deal has received:
          // money leaving that was never received for it (a reversal that names its reference) is the owner's to look
          // at, and no deal's received amount goes below zero.
          if (target && entry.direction === 'debit' && amount !== null && currency === target.currency) {
            if (amount > target.received + (added.get(target.reference) ?? 0)) return push('unmatched', 'return-exceeds-received')
            records.push({
              key,
              dealId: target.dealId,
              reference: target.reference,
              account: statement.account,
              bankRef: item.bankRef,
              bookedOn: entry.bookingDate,
              amount: -amount,
              currency,
              kind: 'return',
            })
            added.set(target.reference, (added.get(target.reference) ?? 0) - amount)
            touched.add(target.reference)
            return push('return', target.received > 0 || target.status !== 'awaiting_payment' ? 'returned-after-payment' : undefined)
          }
          return push('return')
        }
        if (amount === null || currency === null) return push('unmatched', 'no-amount')
        if (references.length > 1) return push('unmatched', 'several-references')
        if (!target) return push('unmatched', texts.some((text) => text !== null && looksLikeReference(text)) ? 'unknown-reference' : 'no-reference')
        if (currency !== target.currency) return push('unmatched', 'currency')
        records.push({
          key,
          dealId: target.dealId,
          reference: target.reference,
          account: statement.account,
          bankRef: item.bankRef,
          bookedOn: entry.bookingDate,
          amount,
          currency,
          kind: 'payment',
        })
        const total = target.received + (added.get(target.reference) ?? 0) + amount
        added.set(target.reference, total - target.received)
        touched.add(target.reference)
        const reason: BankEntryReason | undefined =
          target.status === 'cancelled' ? 'deal-cancelled' : target.status !== 'awaiting_payment' ? 'deal-already-paid' : undefined
        push(total === target.amount ? 'matched' : total < target.amount ? 'partial' : 'overpaid', reason)
      })
    }
  }

  const outcomes: PaymentTargetOutcome[] = [...touched].map((reference) => {
    const target = targets.get(reference)!
    const after = target.received + (added.get(reference) ?? 0)
    return {
      reference,
      dealId: target.dealId,
      domain: target.domain,
      amount: target.amount,
      currency: target.currency,
      status: target.status,
      receivedBefore: target.received,
      receivedAfter: after,
      marksPaid: target.status === 'awaiting_payment' && after >= target.amount,
      ...(target.rate !== undefined && { rate: target.rate }),
    }
  })
  return {
    preview: {
      version: document.version,
      statements: document.statements.length,
      counts: { ...counts, ignored },
      items,
      listedAll: items.length === Object.values(counts).reduce((a, b) => a + b, 0),
      deals: outcomes,
    },
    records,
  }
}
