// The shape of the deal page's words (deal-texts.ts, invoice-address-texts.ts and each language's table,
// deal-texts-fr.ts and its siblings): a module of its own, so that the tables can all name it.

export interface DealWords {
  title: (domain: string) => string
  notFoundTitle: string
  notFound: string
  intro: (domain: string) => string
  amount: string
  reference: string
  seller: string
  contact: string
  contactText: (address: string) => string
  contactReply: string
  steps: { payment: string; transfer: string; done: string }
  stepState: { done: string; current: string; todo: string }
  deadline: (date: string) => string
  overdue: (date: string) => string
  now: string
  todo: {
    awaiting_payment: string
    paid: string
    transferred: string
    completed: string
    cancelled: string
  }
  cancelledBy: { owner: string; buyer: string }
  reason: string
  payTitle: string
  payBank: string
  holder: string
  iban: string
  bic: string
  purpose: string
  qrLabel: string
  qrHelp: string
  payLink: string
  payLinkButton: string
  escrow: string
  escrowText: (name: string) => string
  escrowButton: (name: string) => string
  noPayment: string
  cancelTitle: string
  cancelText: string
  cancelButton: string
  codeTitle: string
  codeText: string
  codeEmail: string
  codeButton: string
  codeShown: string
  codeWrongEmail: string
  transferNote: string
  /** The deal's invoices (decision 038): the heading and each link's words. */
  /** The heading over the deal's invoices: one, or several (advance invoices, a cancellation). */
  invoicesTitle: (count: number) => string
  invoiceLink: (kind: 'invoice' | 'advance' | 'cancellation', number: string) => string
  receivedTitle: string
  receivedText: (date: string | null) => string
  receivedButton: string
  sold: string
  rateLimited: string
  crossSite: string
}

/** Everything the deal page says in one of the languages decision 048 added: one table per language. */
export interface DealPageWords {
  deal: DealWords
  plan: PlanWords
  invoiceAddress: InvoiceAddressWords
}

/** The instalment plan on the deal page (decision 042). */
export interface PlanWords {
  title: string
  intro: (rates: number, transfer: 'after-last' | 'at-once') => string
  rate: string
  due: string
  amount: string
  reference: string
  state: string
  states: { paid: (date: string) => string; next: string; open: string; overdue: string }
  paid: (amount: string) => string
  open: (amount: string) => string
  payThis: string
  /** The payment block: which rate it is for. */
  paying: (label: string, due: string) => string
  allPaid: string
}

export interface InvoiceAddressWords {
  title: string
  intro: string
  saved: string
  invalid: string
  submit: string
}
