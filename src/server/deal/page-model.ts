// What the buyer's deal page shows (DealPage.tsx), from the deal, the domain's settings as they are now and the
// time: the step it is at with its deadline, how to pay while payment is due, the transfer code's form once there.
import type { DealPageProps } from '../../client/page-props.ts'
import { groupedIban } from '../../shared/iban.ts'
import { TEXTS } from '../../shared/texts.ts'
import type { DomainSettings } from '../sites/settings.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredDeal } from '../store/types.ts'
import { epcPayload, qrSvg } from './girocode.ts'
import { decimalOf, formatMinor } from './money.ts'
import { formatDealDate } from './steps.ts'
import { DEAL_TEXTS } from '../../shared/deal-texts.ts'
import { formatInvoiceNumber } from '../invoice/document.ts'

type Step = DealPageProps['steps'][number]

function stepsOf(deal: StoredDeal, now: number): Step[] {
  const { language } = deal.buyer
  const at = (ms: number | null) => (ms === null ? {} : { deadline: formatDealDate(ms, language), ...(ms <= now && { overdue: true }) })
  const order: Step['key'][] = ['payment', 'transfer', 'done']
  const current: Record<StoredDeal['status'], number> = { awaiting_payment: 0, paid: 1, transferred: 1, completed: 2, cancelled: -1 }
  const index = current[deal.status]
  return order.map((key, i) => {
    const state: Step['state'] = index === -1 ? 'todo' : i < index ? 'done' : i === index ? 'current' : 'todo'
    const deadline = state !== 'current' || key === 'done' ? {} : key === 'payment' ? at(deal.paymentDueAt) : at(deal.transferDueAt)
    // A transferred deal waits for the buyer, not for the seller: no seller's deadline is shown as overdue then.
    return { key, state, ...(deal.status === 'transferred' ? {} : deadline) }
  })
}

/** Fills {betrag}, {waehrung} and {referenz} of the owner's payment link, each as a URL component. */
function paymentLinkOf(template: string, deal: StoredDeal): string {
  const values: Record<string, string> = { betrag: decimalOf(deal.amount, deal.currency), waehrung: deal.currency, referenz: deal.reference }
  return template.replace(/\{(betrag|waehrung|referenz)\}/g, (_whole, name: string) => encodeURIComponent(values[name]!))
}

function paymentOf(deal: StoredDeal, settings: DomainSettings): DealPageProps['payment'] {
  const payment = settings.payment
  const { language } = deal.buyer
  if (!payment) return {}
  const bank = payment.bank && {
    holder: payment.bank.holder,
    iban: groupedIban(payment.bank.iban),
    ...(payment.bank.bic && { bic: payment.bank.bic }),
    amount: formatMinor(deal.amount, deal.currency, language),
  }
  // The EPC QR code carries euros only (EPC069-12).
  const payload = payment.bank && deal.currency === 'EUR' ? epcPayload({ ...payment.bank, amount: deal.amount, reference: deal.reference }) : null
  return {
    ...(bank && { bank: { ...bank, ...(payload && { qrSvg: qrSvg(payload, DEAL_TEXTS[language].qrLabel) }) } }),
    ...(payment.link && { link: paymentLinkOf(payment.link, deal) }),
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
  invoices?: readonly { number: number; kind: 'invoice' | 'cancellation' }[]
  /** The invoice address form of a negotiated deal (invoice/address.ts). */
  invoiceAddress?: DealPageProps['invoiceAddress']
}

export function dealPageProps(deal: StoredDeal, site: { settings: DomainSettings; legal: DealPageProps['legal'] }, contact: string, action: string, now: number, state: PageState = {}): DealPageProps {
  const { language } = deal.buyer
  const { settings } = site
  const vat = settings.vat === 'included' ? TEXTS[language].vatIncluded : settings.vat === 'excluded' ? TEXTS[language].vatExcluded : undefined
  const seller = settings.payment?.seller ?? settings.payment?.bank?.holder
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
    ...(deal.status === 'awaiting_payment' && { payment: paymentOf(deal, settings) }),
    action,
    canCancel: deal.status === 'awaiting_payment',
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
      invoices: state.invoices.map((invoice) => ({ href: `${action}/rechnung/${invoice.number}`, label: DEAL_TEXTS[language].invoiceLink(invoice.kind, formatInvoiceNumber(invoice.number)) })),
    }),
    ...(deal.status === 'transferred' && deal.completesAt !== null && { completesAt: formatDealDate(deal.completesAt, language) }),
    ...(site.legal && Object.keys(site.legal).length > 0 && { legal: site.legal }),
  }
}
