// Every mail a buyer gets (and the owner's deal mails beside them), rendered in every language with fixed values:
// src/server/mail/buyer-mails.test.ts compares the result with what the code wrote before the mail words became one
// table per language (issue 38), kept in buyer-mails.expected.json. Issued mails are never changed, so the file is
// never regenerated to make the test pass; a new mail kind or language adds its entries (`node
// tests/helpers/buyer-mails.ts > src/server/mail/buyer-mails.expected.json`, then read the diff: only additions).
import type { DealMailKind } from '../../src/shared/console-api.ts'
import { DEAL_TEMPLATE_KINDS } from '../../src/shared/console-api.ts'
import { LANGUAGES, type Language } from '../../src/shared/language.ts'
import { planSentence } from '../../src/server/deal/actions.ts'
import { rateLabel, rateMail } from '../../src/server/deal/rates.ts'
import { linkInFirstMail, type DealStepContext } from '../../src/server/deal/steps.ts'
import { sealLinkToken } from '../../src/server/deal/seal.ts'
import { confirmText } from '../../src/server/mail/confirm-mail.ts'
import {
  composeDealMail,
  composeSoldNotice,
  DEAL_LABEL,
  DEFAULT_TEMPLATES,
  formatBuyerDeadline,
  PLACEHOLDERS,
  renderDealText,
  soldTemplateFor,
  templateFor,
  templateLanguage,
  templateProblem,
} from '../../src/server/mail/deal-mail.ts'
import { composeDealStepMail, dealStepText } from '../../src/server/mail/deal-step-mail.ts'
import { domainsConfigOf } from '../../src/server/sites/domains-document.ts'
import type { StoredDeal, StoredInquiry, StoredRate } from '../../src/server/store/types.ts'

const DEAL_MAIL_KINDS: readonly DealMailKind[] = [
  'deal-paid',
  'deal-transferred',
  'deal-completed',
  'deal-cancelled',
  'deal-payment-reminder',
  'deal-overdue',
  'deal-transfer-reminder',
]

// A winter and a summer date (the time zone's name and offset differ), at a minute that shows the clock's format.
const WINTER = Date.UTC(2026, 10, 8, 12, 5)
const SUMMER = Date.UTC(2027, 6, 14, 21, 45)
const ADDRESSES = { from: 'Verkauf <verkauf@example.org>', to: 'owner@example.org', visitor: 'Käufer <buyer@example.net>' }
const KEY = Buffer.alloc(32, 7)

function inquiry(language: Language, checkout: boolean): StoredInquiry {
  return {
    id: 42,
    token: 'token0000000042',
    contentHash: 'hash-42',
    domain: 'xn--bcher-kva.de',
    name: 'Erika Mustermann',
    email: 'buyer@example.net',
    message: 'Erste Zeile\r\nZweite Zeile: {betrag}',
    language,
    spamReason: null,
    offer: { amount: 4900, currency: 'EUR' },
    belowMinimum: false,
    createdAt: WINTER,
    ...(checkout && { checkout: { company: null, street: 'Weg 1', postcode: '10115', city: 'Berlin', country: 'DE', vatId: null } }),
  } as StoredInquiry
}

function deal(language: Language, linkSealed: string, rates: StoredRate[]): StoredDeal {
  return {
    id: 7,
    inquiryId: 42,
    linkHash: 'hash',
    linkSealed,
    domain: 'xn--bcher-kva.de',
    status: 'awaiting_payment',
    amount: 490_000,
    currency: 'EUR',
    reference: 'DL-2026-0042',
    createdAt: WINTER,
    paymentDueAt: SUMMER,
    transferDays: 7,
    paidAt: null,
    transferDueAt: null,
    transferredAt: null,
    completesAt: null,
    completedAt: null,
    cancelledAt: null,
    cancelledBy: null,
    cancelReason: null,
    hasTransferCode: false,
    transferNote: null,
    notifyOthers: null,
    buyer: { name: 'Erika', email: 'buyer@example.net', language },
    plan: { transfer: 'after-last', rates },
  }
}

const rate = (number: number, paidAt: number | null): StoredRate => ({
  number,
  amount: number === 0 ? 100_000 : 163_334 - number,
  dueAt: WINTER + number * 30 * 86_400_000,
  reference: `DL-2026-0042-R0${number}`,
  paidAt,
  paidBy: null,
  remindedAt: null,
  overdueAt: null,
  waitedAt: null,
})

/** name → text (or a mail's fields as JSON): what each mail says today. */
export function renderBuyerMails(): Record<string, string> {
  const out: Record<string, string> = {}
  const put = (name: string, value: unknown) => {
    out[name] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  const context = {
    store: undefined,
    config: { mailTo: 'owner@example.org', dataDir: '/nonexistent', deal: { key: KEY } },
    domains: domainsConfigOf({}),
  } as unknown as DealStepContext
  const sealed = sealLinkToken(KEY, 'hash', 'the-page-token')

  for (const kind of DEAL_TEMPLATE_KINDS) {
    put(`template ${kind}`, DEFAULT_TEMPLATES[kind])
    put(`label ${kind}`, DEAL_LABEL[kind])
    put(`placeholders ${kind}`, PLACEHOLDERS[kind])
    put(`language ${kind}`, templateLanguage(kind))
    put(`problem ${kind}`, [templateProblem(kind, 'Hallo {unbekannt}'), templateProblem(kind, 'Hallo')])
    put(
      `render ${kind}`,
      renderDealText(kind, DEFAULT_TEMPLATES[kind], {
        domain: 'xn--bcher-kva.de',
        amount: 4900,
        currency: 'EUR',
        expiresAt: SUMMER,
        note: 'Eine Notiz\r\n{betrag}\u0007',
        link: 'https://bücher.de/kauf/abc',
      }),
    )
    put(`render bare ${kind}`, renderDealText(kind, DEFAULT_TEMPLATES[kind], { domain: 'xn--bcher-kva.de', amount: null, currency: 'EUR', note: '' }))
  }

  for (const language of LANGUAGES) {
    for (const kind of ['notice', 'verify'] as const) {
      put(`confirm ${language} ${kind}`, confirmText(kind, 'bücher.de', language, 'https://bücher.de/bestaetigen?t=x'))
      put(`confirm ${language} ${kind} shown`, confirmText(kind, 'bücher.de', language))
    }
    put(`deadline ${language}`, [formatBuyerDeadline(WINTER, language), formatBuyerDeadline(SUMMER, language)])
    put(`sold template ${language}`, soldTemplateFor(language))
    put(`link in first mail ${language}`, linkInFirstMail(language))
    for (const checkout of [false, true]) {
      for (const kind of ['counter', 'accept', 'decline'] as const) {
        const reply = { kind, body: `Text ${kind}`, replyTo: null, inquiryMessageId: '<inquiry@example.org>' }
        put(`template for ${language} ${kind} checkout=${checkout}`, templateFor(kind, inquiry(language, checkout)))
        put(`deal mail ${language} ${kind} checkout=${checkout}`, composeDealMail(inquiry(language, checkout), reply, '<reply@example.org>', ADDRESSES))
      }
      const notice = { body: 'Verkauft', replyTo: 'owner@example.org', inquiryMessageId: '<inquiry@example.org>' }
      put(`sold notice ${language} checkout=${checkout}`, composeSoldNotice(inquiry(language, checkout), notice, '<sold@example.org>', ADDRESSES))
    }
    for (const kind of DEAL_MAIL_KINDS) {
      const full = {
        domain: 'bücher.de',
        amount: '4.900,00 €',
        reference: 'DL-2026-0042',
        link: 'https://bücher.de/kauf/abc',
        reason: 'Zu spät',
        completesAt: '1. Dezember 2026',
        deadline: '8. November 2026',
      }
      const bare = { domain: 'bücher.de', amount: '4.900,00 €', reference: 'DL-2026-0042', link: 'https://bücher.de/kauf/abc' }
      put(`step ${language} ${kind}`, dealStepText(kind, language, full))
      put(`step bare ${language} ${kind}`, dealStepText(kind, language, bare))
      const reply = { kind, body: 'Text', replyTo: null, inquiryMessageId: '<inquiry@example.org>' }
      put(`step mail ${language} ${kind}`, composeDealStepMail(inquiry(language, false), reply, '<step@example.org>', ADDRESSES))
    }
    put(
      `rate labels ${language}`,
      [0, 1, 12].map((number) => rateLabel({ number }, 12, language)),
    )
    const open = [rate(0, WINTER), rate(1, null), rate(2, null)]
    for (const kind of ['received', 'reminder', 'overdue-buyer', 'overdue-owner'] as const) {
      put(`rate ${language} ${kind}`, rateMail(context, deal(language, sealed, open), open[1]!, kind))
      put(`rate last ${language} ${kind}`, rateMail(context, deal(language, 'not-sealed', open), open[2]!, kind))
    }
    for (const [plan, total] of [
      [{ rates: 3, downPayment: 0, transfer: 'after-last' }, 100_000],
      [{ rates: 12, downPayment: 50_000, transfer: 'at-once' }, 490_000],
      [{ rates: 6, downPayment: 0, transfer: 'at-once' }, 600_000],
    ] as const) {
      put(`plan ${language} ${plan.rates} ${plan.downPayment} ${plan.transfer}`, planSentence(plan, total, 'EUR', language))
    }
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${JSON.stringify(renderBuyerMails(), null, 1)}\n`)
