import type { FieldErrors, VisibleField } from '../shared/contact.ts'
import type { CheckoutFieldErrors, CheckoutVisibleField } from '../shared/checkout.ts'
import type { PriceTerms } from '../shared/price-terms.ts'
import type { Language } from '../shared/language.ts'

/** Everything the page needs, rendered on the server and handed to the browser for hydration. */
export interface PageProps {
  /** The domain as people read it (Unicode). */
  host: string
  /** The language of every text on the page: the browser hydrates in the language the server rendered. */
  language: Language
  token: string
  /**
   * The token's signed issue time (server/http/form-token.ts). Named `hash` in the browser, as the form field and the API
   * field are: the original form's name for what it sent beside the token.
   */
  hash: string
  /**
   * From the domains file: the price terms (the amount formatted, e.g. "4.900 €"; none when it is on request, or the
   * name is sold) and a short description.
   */
  listing?: PriceTerms & { description?: string }
  /** A checkout elsewhere ("Jetzt kaufen"), exactly as the domains file has it; only for an available name. */
  buyUrl?: string
  /** The name is sold here at its fixed price: "Jetzt kaufen" opens the checkout on this host (/kaufen). */
  checkout?: true
  /** "So läuft der Kauf ab", when the page shows a price and the name is not sold; `text`: the owner's own steps. */
  howToBuy?: { text?: string }
  /** Present when the domain has a minimum offer: the form then asks for an offer. */
  offer?: { currency: string; minimum: string }
  /** Footer links; the footer stays empty without them. */
  legal?: { imprintHref?: string; privacyHref?: string }
  /** The domains file's `status` when the name is not simply available: reserved keeps the form, sold has none. */
  saleStatus?: 'reserved' | 'sold'
  /** The owner's other names for sale, most like this one first (`portfolio: true`). */
  portfolio?: { names: PortfolioLink[] }
  /** The domain confirms inquiries by a mailed link (`confirm: verify`): the success message says to look there. */
  verify?: true
  /** Set when the server answers a form sent without JavaScript. */
  outcome?: { status: 'success' } | { status: 'invalid' | 'failed'; message: string; fieldErrors?: FieldErrors }
  /** What a visitor without JavaScript had typed, shown again after an error. */
  values?: Partial<Record<VisibleField, string>>
}

export const PROPS_ELEMENT_ID = 'page-props'

/** One of the owner's other names: its page, and its price as the page would show it (none without one). */
export interface PortfolioLink {
  /** The name as people read it. */
  name: string
  href: string
  price?: string
}

/** GET /domains: the whole portfolio, one page of it, searched and sorted without script. */
export interface DomainListProps {
  /** The host the list is shown on, as people read it. */
  host: string
  language: Language
  q: string
  sort: 'name' | 'price'
  order: 'asc' | 'desc'
  page: number
  pages: number
  total: number
  items: PortfolioLink[]
  legal?: PageProps['legal']
}

/** GET /kauf/…: the buyer's page of one deal, rendered on the server only; its forms work without script. */
export interface DealPageProps {
  language: Language
  /** The domain as people read it. */
  domain: string
  /** Formatted, with the VAT note when the domain has one. */
  amount: string
  vat?: string
  reference: string
  seller?: string
  /** Where the buyer reaches the seller besides replying to the mail. */
  contact?: string
  status: 'awaiting_payment' | 'paid' | 'transferred' | 'completed' | 'cancelled'
  steps: { key: 'payment' | 'transfer' | 'done'; state: 'done' | 'current' | 'todo'; deadline?: string; overdue?: boolean }[]
  cancelled?: { by: 'owner' | 'buyer'; reason?: string }
  /** Shown while the buyer has to pay. */
  payment?: {
    bank?: { holder: string; iban: string; bic?: string; amount: string; qrSvg?: string }
    link?: string
    escrow?: { name: string; url: string }
  }
  /** The form's action: this page's own path. */
  action: string
  canCancel: boolean
  /** transferred: the code is there to reveal (`shown` after the address matched). */
  code?: { shown?: string; wrongEmail?: true; email?: string }
  transferNote?: string
  /** A negotiated deal not invoiced yet: the buyer's invoice address, asked as the checkout asks it (decision 038). */
  invoiceAddress?: {
    values: Partial<Record<CheckoutVisibleField, string>>
    fieldErrors?: Partial<Record<CheckoutVisibleField, string>>
    saved: boolean
  }
  /** The deal's invoices, each a download under the page's own link. */
  invoices?: { href: string; label: string }[]
  /** When a transferred deal completes by itself. */
  completesAt?: string
  legal?: PageProps['legal']
  /** An instalment plan (decision 042): every payment, what is paid and open; `payment` is then for `paying`. */
  plan?: {
    rates: number
    transfer: 'after-last' | 'at-once'
    schedule: {
      number: number
      label: string
      amount: string
      due: string
      reference: string
      state: 'paid' | 'next' | 'open' | 'overdue'
      paidOn?: string
      href: string
    }[]
    paid: string
    open: string
    /** The payment the payment block is for (the next open one, or the one chosen with ?rate=N). */
    paying?: { label: string; due: string; reference: string }
  }
}

/** GET /kaufen: the checkout at the fixed price, rendered on the server only; its form works without script. */
export interface CheckoutPageProps {
  language: Language
  /** The domain as people read it. */
  host: string
  /** The listed price, formatted, and its VAT note. */
  price: string
  vat?: string
  token: string
  hash: string
  /** The terms shown (price, currency, VAT note, plan) as the server's digest: posted back, compared with the file's. */
  terms: string
  /** After a refused POST: what was typed, and what is wrong. */
  values?: Partial<Record<CheckoutVisibleField, string>>
  fieldErrors?: CheckoutFieldErrors
  error?: string
  legal?: PageProps['legal']
  /** The domain's instalment plan (decision 042): so many monthly rates of about this much; the buyer chooses. */
  /** The domain's plan (decisions 042, 046): the first rate, a down payment (formatted) and whether the name moves at once. */
  instalments?: { rates: number; rate: string; downPayment?: string; atOnce: boolean; chosen: boolean }
}
