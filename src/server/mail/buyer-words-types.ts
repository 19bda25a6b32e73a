// The shape of the buyer's mail words, one table per language (buyer-words.ts has the tables): a module of its own, so
// that each language's table and the table of tables can both name it.
import type { DealMailKind } from '../../shared/console-api.ts'

export type ConfirmKind = 'notice' | 'verify'

/** The confirmation mails' words (confirm-mail.ts). */
interface ConfirmWords {
  greeting: string
  subject: Record<ConfirmKind, (domain: string) => string>
  /** What the mail says before the link (verify) or instead of it (notice). */
  lead: Record<ConfirmKind, (domain: string) => string>
  /** After the lead, or after the link. */
  close: Record<ConfirmKind, string>
  /** Where the text is shown instead of sent (the console), in place of the link. */
  linkPlaceholder: string
  signature: (domain: string) => string
}

/** A deal's mails to the buyer; the deadlines' mails to the owner (deal-overdue, deal-transfer-reminder) stay German. */
export type BuyerStepKind = Exclude<DealMailKind, 'deal-overdue' | 'deal-transfer-reminder'>

export interface StepValues {
  /** As people read it. */
  domain: string
  amount: string
  reference: string
  link: string
  /** The owner's reason (cancel), already cleaned of control characters. */
  reason?: string
  /** When a transferred deal completes by itself. */
  completesAt?: string
  /** The deadline a reminder is about. */
  deadline?: string
}

/** An instalment's mail (deal/rates.ts). */
export interface RateValues {
  domain: string
  /** "Rate 3 of 12", in the buyer's words. */
  label: string
  amount: string
  reference: string
  due: string
  /** The deal's reference. */
  deal: string
  link: string
  /** The rate due after this one, in words (nextRate), or empty. */
  next: string
}

/** The negotiation's templates (deal-mail.ts): a checkout's confirmation and refusal speak of a purchase. */
export type TemplateBase = 'counter' | 'accept' | 'decline' | 'checkout-accept' | 'checkout-decline' | 'sold'

/** A checkout's own templates and subjects: every language has them but German (decision 025: Annahme, Ablehnung). */
export type CheckoutBase = 'checkout-accept' | 'checkout-decline'

export interface BuyerMailWords {
  confirm: ConfirmWords
  /** The reply's subject line: "Re: <inquiry about the domain>: <step>". */
  replyPrefix: (domain: string) => string
  stepSubject: Record<BuyerStepKind, string>
  stepBody: Record<BuyerStepKind, (values: StepValues) => string>
  /**
   * The defaults of the owner's templates; {domain}, {betrag}, {frist}, {notiz} and {link} as in German. Without a
   * checkout's own (German), a checkout gets the offer's, and its message (our summary) is quoted like any other.
   */
  templates: Record<Exclude<TemplateBase, CheckoutBase>, string> & Partial<Record<CheckoutBase, string>>
  subjects: Record<'counter' | 'accept' | 'decline' | 'sold-notice', string> & Partial<Record<CheckoutBase, string>>
  /** The line above the buyer's quoted message. */
  quoteLine: (date: string, domain: string) => string
  /** The quoted message's time, where it is not written as berlinTime (German: as the owner's plain reply writes it). */
  quoteTime?: (ms: number) => string
  /** {betrag} of an acceptance without an amount. */
  asAgreed: string
  /** The locale of berlinTime's date, where it is not the page's (LOCALE). */
  timeLocale?: string
  /** A date and time in Berlin, as the buyer reads it ("8 novembre 2026 à 13:00" and the time zone). */
  berlinTime: (formatted: string) => string
  /** In place of the deal page's link when this process cannot open it. */
  linkInFirstMail: string
  downPayment: string
  rate: (number: number, count: number) => string
  rateBody: Record<'received' | 'reminder' | 'overdue-buyer', (values: RateValues) => string>
  nextRate: (label: string, amount: string, due: string, reference: string) => string
  /** The instalment plan, added after a counter-offer's or an acceptance's template. */
  plan: (plan: { down: string | null; rates: number; rate: string; lastLess: boolean; atOnce: boolean }) => string
}
