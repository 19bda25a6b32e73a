// What the buyer's deal page shows (DealPage.tsx), from the deal, the domain's settings as they are now and the
// time: the step it is at with its deadline, how to pay while payment is due, the transfer code's form once there.
import type { DealPageProps } from '../../client/page-props.ts'
import { groupedIban } from '../../shared/iban.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import type { DomainSettings } from '../sites/settings.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredDeal, StoredRate } from '../store/types.ts'
import { rateCount, rateLabel } from './rates.ts'
import { epcPayload, qrSvg } from './girocode.ts'
import { decimalOf, formatMinor } from '../lib/money.ts'
import { formatDealDate } from './steps.ts'
import { DEAL_TEXTS } from '../../shared/deal-texts.ts'
import { formatInvoiceNumber } from '../invoice/document.ts'

type Step = DealPageProps['steps'][number]

/** The plan's payment the page is about: the one asked for (?rate=N) while open, else the next open one. */
function payingRate(deal: StoredDeal, asked: number | undefined): StoredRate | null {
  const open = deal.plan?.rates.filter((rate) => rate.paidAt === null) ?? []
  return open.find((rate) => rate.number === asked) ?? open[0] ?? null
}

function stepsOf(deal: StoredDeal, now: number): Step[] {
  const { language } = deal.buyer
  const at = (ms: number | null) => (ms === null ? {} : { deadline: formatDealDate(ms, language), ...(ms <= now && { overdue: true }) })
  const order: Step['key'][] = ['payment', 'transfer', 'done']
  const current: Record<StoredDeal['status'], number> = { awaiting_payment: 0, paid: 1, transferred: 1, completed: 2, cancelled: -1 }
  const index = current[deal.status]
  return order.map((key, i) => {
    const state: Step['state'] = index === -1 ? 'todo' : i < index ? 'done' : i === index ? 'current' : 'todo'
    // A plan's payment step is due with its next open rate.
    const paymentDue = deal.plan ? (payingRate(deal, undefined)?.dueAt ?? deal.paymentDueAt) : deal.paymentDueAt
    const deadline = state !== 'current' || key === 'done' ? {} : key === 'payment' ? at(paymentDue) : at(deal.transferDueAt)
    // A transferred deal waits for the buyer, not for the seller: no seller's deadline is shown as overdue then.
    return { key, state, ...(deal.status === 'transferred' ? {} : deadline) }
  })
}

/** Fills {betrag}, {waehrung} and {referenz} of the owner's payment link, each as a URL component. */
function paymentLinkOf(template: string, deal: StoredDeal): string {
  const values: Record<string, string> = { betrag: decimalOf(deal.amount, deal.currency), waehrung: deal.currency, referenz: deal.reference }
  return template.replace(/\{(betrag|waehrung|referenz)\}/g, (_whole, name: string) => encodeURIComponent(values[name]!))
}

function paymentOf(deal: StoredDeal, settings: DomainSettings, rate: StoredRate | null = null): DealPageProps['payment'] {
  const payment = settings.payment
  const { language } = deal.buyer
  if (!payment) return {}
  // A plan's rate is paid with its own amount and reference (decision 042).
  const due = rate ? { amount: rate.amount, reference: rate.reference } : { amount: deal.amount, reference: deal.reference }
  const bank = payment.bank && {
    holder: payment.bank.holder,
    iban: groupedIban(payment.bank.iban),
    ...(payment.bank.bic && { bic: payment.bank.bic }),
    amount: formatMinor(due.amount, deal.currency, language),
  }
  // The EPC QR code carries euros only (EPC069-12).
  const payload = payment.bank && deal.currency === 'EUR' ? epcPayload({ ...payment.bank, ...due }) : null
  return {
    ...(bank && { bank: { ...bank, ...(payload && { qrSvg: qrSvg(payload, DEAL_TEXTS[language].qrLabel) }) } }),
    ...(payment.link && { link: paymentLinkOf(payment.link, rate ? { ...deal, ...due } : deal) }),
    ...(payment.escrow && { escrow: payment.escrow }),
  }
}

export interface PageState {
  /** The code, once the buyer's address matched. */
  shownCode?: string
  wrongEmail?: boolean
  /** What the buyer typed, shown again (as text) after a mismatch. */
  email?: string
  /** The deal's invoices (decision 038). */
  invoices?: readonly { number: number; kind: 'invoice' | 'advance' | 'cancellation' }[]
  /** The invoice address form of a negotiated deal (invoice/address.ts). */
  invoiceAddress?: DealPageProps['invoiceAddress']
  /** The plan's rate the buyer chose to pay (?rate=N). */
  rate?: number
}

/** The plan as the buyer reads it: each payment with its date, reference and state, what is paid and open. */
function planOf(deal: StoredDeal, action: string, now: number, paying: StoredRate | null): NonNullable<DealPageProps['plan']> {
  const { language } = deal.buyer
  const rates = deal.plan!.rates
  const count = rateCount(deal)
  const next = rates.find((rate) => rate.paidAt === null)
  const sum = (list: StoredRate[]) =>
    formatMinor(
      list.reduce((total, rate) => total + rate.amount, 0),
      deal.currency,
      language,
    )
  return {
    rates: count,
    transfer: deal.plan!.transfer,
    schedule: rates.map((rate) => ({
      number: rate.number,
      label: rateLabel(rate, count, language),
      amount: formatMinor(rate.amount, deal.currency, language),
      due: formatDealDate(rate.dueAt, language),
      reference: rate.reference,
      state: rate.paidAt !== null ? 'paid' : rate.dueAt <= now ? 'overdue' : rate === next ? 'next' : 'open',
      ...(rate.paidAt !== null && { paidOn: formatDealDate(rate.paidAt, language) }),
      href: `${action}?rate=${rate.number}#deal-pay`,
    })),
    paid: sum(rates.filter((rate) => rate.paidAt !== null)),
    open: sum(rates.filter((rate) => rate.paidAt === null)),
    ...(paying && { paying: { label: rateLabel(paying, count, language), due: formatDealDate(paying.dueAt, language), reference: paying.reference } }),
  }
}

export function dealPageProps(
  deal: StoredDeal,
  site: { settings: DomainSettings; legal: DealPageProps['legal'] },
  contact: string,
  action: string,
  now: number,
  state: PageState = {},
): DealPageProps {
  const { language } = deal.buyer
  const { settings } = site
  const vat = settings.vat === 'included' ? TEXTS[language].vatIncluded : settings.vat === 'excluded' ? TEXTS[language].vatExcluded : undefined
  const seller = settings.payment?.seller ?? settings.payment?.bank?.holder
  const paying = deal.status === 'cancelled' ? null : payingRate(deal, state.rate)
  // A plan is paid rate by rate while a rate is open, also once the name moved at once.
  const paymentDue = deal.plan ? paying !== null : deal.status === 'awaiting_payment'
  return {
    language,
    domain: displayHost(deal.domain),
    amount: formatMinor(deal.amount, deal.currency, language),
    ...(vat && { vat }),
    reference: deal.reference,
    ...(seller && { seller }),
    contact,
    status: deal.status,
    steps: stepsOf(deal, now),
    ...(deal.status === 'cancelled' && deal.cancelledBy && { cancelled: { by: deal.cancelledBy, ...(deal.cancelReason && { reason: deal.cancelReason }) } }),
    ...(paymentDue && { payment: paymentOf(deal, settings, paying) }),
    ...(deal.plan && { plan: planOf(deal, action, now, paying) }),
    action,
    canCancel: deal.status === 'awaiting_payment' && !deal.plan?.rates.some((rate) => rate.paidAt !== null),
    ...((deal.status === 'transferred' || deal.status === 'completed') &&
      deal.hasTransferCode && {
        code: {
          ...(state.shownCode !== undefined && { shown: state.shownCode }),
          ...(state.wrongEmail && { wrongEmail: true as const }),
          ...(state.email !== undefined && { email: state.email }),
        },
      }),
    ...(deal.transferNote && { transferNote: deal.transferNote }),
    ...(state.invoiceAddress && { invoiceAddress: state.invoiceAddress }),
    ...(state.invoices?.length && {
      invoices: state.invoices.map((invoice) => ({
        href: `${action}/rechnung/${invoice.number}`,
        label: DEAL_TEXTS[language].invoiceLink(invoice.kind, formatInvoiceNumber(invoice.number)),
      })),
    }),
    ...(deal.status === 'transferred' && deal.completesAt !== null && { completesAt: formatDealDate(deal.completesAt, language) }),
    ...(site.legal && Object.keys(site.legal).length > 0 && { legal: site.legal }),
  }
}
