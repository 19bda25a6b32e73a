// What the console's render tests draw: a state for every page, with rows whose text is hostile where it can be,
// and how a test reads the text a browser would show.
import type { ConsoleState, InboxRow, InquiryDetail, Overview } from '../shared/console-api.ts'
import type { NameStats, VisitorStats } from '../shared/stats-api.ts'
import { renderConsole } from './entry-server.tsx'

export const NOW = Date.UTC(2025, 4, 20, 12, 0, 0)
export const HOUR = 3_600_000

export const row = (id: number, fields: Partial<InboxRow> = {}): InboxRow => ({
  id,
  domain: 'bücher.example',
  domainAscii: 'xn--bcher-kva.example',
  name: 'Erika Mustermann',
  email: 'erika@example.org',
  firstLine: 'Guten Tag, ist die Domain noch zu haben?',
  offer: '1.500 €',
  createdAt: NOW - 3 * HOUR,
  status: 'new',
  mail: 'sent',
  ...fields,
})

export const detail = (fields: Partial<InquiryDetail> = {}): InquiryDetail => ({
  id: 7,
  domain: 'bücher.example',
  domainAscii: 'xn--bcher-kva.example',
  name: 'Erika Mustermann',
  email: 'erika@example.org',
  message: 'Guten Tag,\nist die Domain noch zu haben?',
  language: 'de',
  createdAt: NOW - 3 * HOUR,
  status: 'new',
  spamReason: null,
  offer: { amount: 1500, currency: 'EUR', formatted: '1.500 €' },
  belowMinimum: false,
  price: '5.000 €',
  minimum: '1.000 €',
  ownerMail: { status: 'failed', attempts: 3, lastError: '550 mailbox unavailable', messageId: '<abc@lander>' },
  replies: [
    {
      id: 1,
      kind: 'reply',
      amount: null,
      body: 'Danke für die Anfrage.',
      createdAt: NOW - HOUR,
      mail: { status: 'pending', attempts: 0, lastError: null, messageId: '<r1@lander>' },
    },
  ],
  currency: 'EUR',
  counter: null,
  counterDays: 7,
  checkout: null,
  deal: null,
  ...fields,
})

export function visitorStatsFixture(): VisitorStats {
  const counts = { visitors: 0, visits: 0, botsFiltered: 0, repeats: 0, formTurns: 0, inquiries: 0, offers: 0, deals: 0, revenue: [] }
  const name = (domain: string, fields: Partial<NameStats>): NameStats => ({
    domain,
    domainAscii: domain,
    ...counts,
    highestOffer: null,
    medianOffer: null,
    askingPrice: null,
    highestShare: null,
    sources: [],
    languages: [],
    ...fields,
  })
  return {
    days: 30,
    firstDay: '2025-04-20',
    lastDay: '2025-05-19',
    total: {
      ...counts,
      visitors: 180,
      visits: 240,
      botsFiltered: 900,
      formTurns: 12,
      inquiries: 5,
      offers: 3,
      deals: 1,
      revenue: [{ amount: 250_000, currency: 'EUR' }],
      sources: [
        { key: 'direct', count: 200 },
        { key: 'market:sedo', count: 40 },
      ],
      languages: [
        { key: 'de', count: 200 },
        { key: 'en', count: 40 },
      ],
    },
    daily: [{ day: '2025-05-19', visitors: 180, visits: 240, formTurns: 12, inquiries: 5 }],
    names: [
      name('a.example', { visitors: 120, visits: 150, botsFiltered: 800, sources: [{ key: 'market:sedo', count: 40 }] }),
      name('b.example', {
        visitors: 60,
        visits: 90,
        formTurns: 12,
        inquiries: 5,
        offers: 3,
        deals: 1,
        highestOffer: { amount: 2400, currency: 'EUR' },
        medianOffer: { amount: 2000, currency: 'EUR' },
        askingPrice: { amount: 2500, currency: 'EUR' },
        highestShare: 96,
        revenue: [{ amount: 250_000, currency: 'EUR' }],
      }),
    ],
    hints: [
      { kind: 'no-inquiries', domain: 'a.example', visitors: 120, visits: 150, formTurns: 0 },
      {
        kind: 'offers-near-price',
        domain: 'b.example',
        offers: 3,
        highestOffer: { amount: 2400, currency: 'EUR' },
        askingPrice: { amount: 2500, currency: 'EUR' },
        highestShare: 96,
      },
      { kind: 'no-visitors', domain: 'c.example', days: 90 },
    ],
  }
}

export const overview: Overview = {
  days: 30,
  domains: [
    {
      domain: 'a.example',
      domainAscii: 'a.example',
      views: 900,
      inquiries: 1,
      spam: 0,
      highestOffer: null,
      medianOffer: null,
      highestAmount: null,
      medianAmount: null,
      daily: [{ day: '2025-05-19', views: 900, inquiries: 1 }],
    },
    {
      domain: 'b.example',
      domainAscii: 'b.example',
      views: 10,
      inquiries: 4,
      spam: 2,
      highestOffer: '2.000 €',
      medianOffer: '1.000 €',
      highestAmount: { amount: 2000, currency: 'EUR' },
      medianAmount: { amount: 1000, currency: 'EUR' },
      daily: [{ day: '2025-05-19', views: 10, inquiries: 4 }],
    },
    {
      domain: 'c.example',
      domainAscii: 'c.example',
      views: 50,
      inquiries: 4,
      spam: 0,
      highestOffer: '900 €',
      medianOffer: '900 €',
      highestAmount: { amount: 900, currency: 'EUR' },
      medianAmount: { amount: 900, currency: 'EUR' },
      daily: [{ day: '2025-05-19', views: 50, inquiries: 4 }],
    },
  ],
  visits: visitorStatsFixture(),
}

export const STATES: Record<ConsoleState['page'], ConsoleState> = {
  setup: { page: 'setup' },
  signin: { page: 'signin' },
  inbox: { page: 'inbox', query: {}, data: { items: [row(1), row(2, { mail: null, offer: null })], next: 'c2', domains: [] } },
  inquiry: { page: 'inquiry', data: detail() },
  outbox: {
    page: 'outbox',
    data: {
      items: [
        {
          id: 3,
          inquiryId: 7,
          domain: 'bücher.example',
          kind: 'reply',
          target: null,
          status: 'failed',
          attempts: 5,
          lastError: 'timeout',
          createdAt: NOW - HOUR,
          nextAttemptAt: NOW,
        },
        {
          id: 4,
          inquiryId: 7,
          domain: 'bücher.example',
          kind: 'webhook',
          target: 'ntfy.example.org',
          status: 'pending',
          attempts: 2,
          lastError: 'HTTP 503',
          createdAt: NOW - HOUR,
          nextAttemptAt: NOW,
        },
        {
          id: 4,
          inquiryId: null,
          domain: 'bücher.example',
          kind: 'dns',
          target: '192.0.2.53:53',
          status: 'pending',
          attempts: 1,
          lastError: 'the DNS server cannot be reached (ECONNREFUSED)',
          createdAt: NOW - HOUR,
          nextAttemptAt: NOW,
        },
      ],
      next: null,
    },
  },
  overview: { page: 'overview', data: overview },
  templates: {
    page: 'templates',
    data: {
      templates: [
        {
          kind: 'decline',
          label: 'Ablehnung',
          language: 'de',
          text: 'Guten Tag, {domain}',
          isDefault: false,
          defaultText: 'Standard',
          placeholders: ['domain', 'notiz'],
        },
      ],
    },
  },
  sales: {
    page: 'sales',
    data: {
      deals: [
        {
          id: 3,
          inquiryId: 7,
          domain: 'bücher.example',
          status: 'awaiting_payment',
          statusLabel: 'Wartet auf Zahlung',
          amount: '2.500 €',
          reference: 'DL-2026-0003',
          buyer: { name: '<b>Erika</b>', email: 'erika@example.de', language: 'de' },
          createdAt: NOW - HOUR,
          nextDeadline: NOW - 1000,
          nextDeadlineLabel: 'Zahlung bis',
          overdue: true,
          hasTransferCode: false,
          transferNote: null,
          cancelReason: null,
          cancelledBy: null,
          pageUrl: null,
          notifyOthers: null,
        },
      ],
    },
  },
  privacy: { page: 'privacy' },
  import: { page: 'import', data: { domainsFile: '/etc/domain-lander/domains.yaml', maxBytes: 10 * 1024 * 1024 } },
  domains: {
    page: 'domains',
    data: {
      domainsFile: '/etc/domain-lander/domains.yaml',
      suggestedFile: '/var/lib/domain-lander/domains.yaml',
      list: {
        q: '',
        offset: 0,
        total: 1,
        items: [
          {
            name: 'bücher.example',
            ascii: 'xn--bcher-kva.example',
            price: 4900,
            currency: 'EUR',
            priceType: 'fixed',
            minOffer: null,
            status: 'available',
            language: null,
            listed: true,
            description: '<b>fett</b>',
          },
        ],
      },
    },
  },
  'bank-statement': { page: 'bank-statement', data: { maxBytes: 5 * 1024 * 1024 } },
  security: {
    page: 'security',
    data: {
      passkeys: [{ id: 1, name: '<img src=x onerror=alert(1)>', createdAt: NOW - HOUR, lastUsedAt: null }],
      passkeyProblem: null,
      secondFactor: { on: false, recoveryCodesLeft: 0 },
    },
  },
  sessions: {
    page: 'sessions',
    data: {
      sessions: [
        { ref: 'r'.repeat(22), current: true, createdAt: NOW - HOUR, lastSeenAt: NOW, browser: 'Chrome auf Linux', address: '203.0.x.x', method: 'passkey' },
      ],
    },
  },
  audit: {
    page: 'audit',
    data: {
      query: { action: 'reply' },
      entries: [
        {
          id: 2,
          at: NOW - HOUR,
          actor: 'Sitzung 1a2b3c4d',
          action: 'reply',
          outcome: 'ok',
          inquiryId: 7,
          dealId: null,
          domain: '<script>alert(1)</script>.example',
          detail: null,
        },
        {
          id: 1,
          at: NOW - 2 * HOUR,
          actor: 'unbekannt',
          action: 'sign-in',
          outcome: 'refused',
          inquiryId: null,
          dealId: null,
          domain: null,
          detail: 'password · 203.0.x.x',
        },
      ],
      next: `${NOW - 2 * HOUR}.1`,
    },
  },
  'not-found': { page: 'not-found' },
}

export const render = (state: ConsoleState) => renderConsole(state, NOW)
/** The text a browser shows: tags dropped, the few entities React writes decoded. */
export const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
