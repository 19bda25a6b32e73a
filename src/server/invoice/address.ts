// The invoice address of a deal from a negotiation (decision 038): the deal page asks its buyer for it, with the
// checkout's fields and schema, while invoices are on and the deal is neither cancelled nor invoiced yet. Kept in the
// inquiry's checkout columns; "Zahlung erhalten" then issues the invoice as for a checkout.
import { ADDRESS_VISIBLE, CHECKOUT_FIELD, checkAddress } from '../../shared/checkout.ts'
import type { DealPageProps } from '../../client/page-props.ts'
import type { Config } from '../config.ts'
import type { InvoiceListing, KeepAddressResult, StoredDeal, Store } from '../store/types.ts'
import { invoiceAddressOf } from './issue.ts'

type AddressForm = NonNullable<DealPageProps['invoiceAddress']>
type Values = AddressForm['values']

interface Context {
  store: Store
  config: Partial<Pick<Config, 'invoice'>>
}

/** The form as the page shows it now (what is saved, else the inquiry's name), or undefined when it is not asked. */
export async function invoiceAddressForm(
  context: Context,
  deal: StoredDeal,
  invoices: readonly Pick<InvoiceListing, 'kind'>[],
): Promise<AddressForm | undefined> {
  // No invoices, no address: nothing personal is asked that is not needed.
  if (!context.config.invoice || deal.status === 'cancelled' || invoices.some((invoice) => invoice.kind !== 'cancellation')) return undefined
  const inquiry = await context.store.getInquiry(deal.inquiryId)
  // A checkout's buyer gave the address with the purchase: it is the binding one.
  if (!inquiry || inquiry.checkout) return undefined
  const address = invoiceAddressOf(inquiry)
  if (!address) return { values: { [CHECKOUT_FIELD.name]: inquiry.name }, saved: false }
  return {
    values: {
      [CHECKOUT_FIELD.name]: address.name,
      [CHECKOUT_FIELD.company]: address.company ?? '',
      [CHECKOUT_FIELD.street]: address.street,
      [CHECKOUT_FIELD.postcode]: address.postcode,
      [CHECKOUT_FIELD.city]: address.city,
      [CHECKOUT_FIELD.country]: address.country,
      [CHECKOUT_FIELD.vatId]: address.vatId ?? '',
    },
    saved: true,
  }
}

/** What was typed, kept as text for the form shown again (never more than a field may hold). */
function typedValues(body: unknown): Values {
  const source = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  return Object.fromEntries(ADDRESS_VISIBLE.map((field) => [field, typeof source[field] === 'string' ? (source[field] as string).slice(0, 1000) : '']))
}

export type SaveAddressOutcome = { status: 'invalid'; form: AddressForm } | { status: KeepAddressResult } | { status: 'off' }

/** The buyer's POST of the form: checked by the checkout's schema, kept unless the deal is invoiced or cancelled. */
export async function saveInvoiceAddress(context: Context, deal: StoredDeal, body: unknown): Promise<SaveAddressOutcome> {
  if (!context.config.invoice) return { status: 'off' }
  const check = checkAddress(body, deal.buyer.language)
  if (check.status === 'invalid') return { status: 'invalid', form: { values: typedValues(body), fieldErrors: check.fieldErrors, saved: false } }
  const { data } = check
  const status = await context.store.keepInvoiceAddress(deal.id, {
    name: data[CHECKOUT_FIELD.name],
    company: data[CHECKOUT_FIELD.company] || null,
    street: data[CHECKOUT_FIELD.street],
    postcode: data[CHECKOUT_FIELD.postcode],
    city: data[CHECKOUT_FIELD.city],
    country: data[CHECKOUT_FIELD.country],
    vatId: data[CHECKOUT_FIELD.vatId] || null,
  })
  return { status }
}
