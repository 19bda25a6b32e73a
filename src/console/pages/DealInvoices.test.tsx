// "Verkäufe" with a deal's invoices (decision 038), rendered as the server sends it: each invoice a download with its
// number, kind and date; "Rechnung ausstellen" only where the owner can issue the missing one; nothing while
// invoices are off.
import { describe, expect, it } from 'vitest'
import type { DealInvoices, DealSummary } from '../../shared/deal-api.ts'
import { renderConsole } from '../entry-server.tsx'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0)

const deal = (fields: Partial<DealSummary> = {}): DealSummary => ({
  id: 3,
  inquiryId: 7,
  domain: 'bücher.example',
  status: 'paid',
  statusLabel: 'Bezahlt',
  amount: '2.500 €',
  reference: 'DL-2026-0003',
  buyer: { name: 'Erika', email: 'erika@example.de', language: 'de' },
  createdAt: NOW,
  nextDeadline: null,
  nextDeadlineLabel: null,
  overdue: false,
  hasTransferCode: false,
  transferNote: null,
  cancelReason: null,
  cancelledBy: null,
  pageUrl: null,
  notifyOthers: null,
  ...fields,
})

const none: DealInvoices = { invoices: [], canIssue: false, missingAddress: false }
const render = (deals: DealSummary[], invoices?: Record<number, DealInvoices>) =>
  renderConsole({ page: 'sales', data: { deals, ...(invoices && { invoices }) } }, NOW)
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('Verkäufe with invoices', () => {
  it('lists each invoice of a deal with its download, kind, number and date', () => {
    const cancelled = deal({ status: 'cancelled', statusLabel: 'Abgebrochen' })
    const html = render([cancelled], {
      3: {
        ...none,
        invoices: [
          { id: 11, number: 4, kind: 'invoice', advanceRate: null, dealId: 3, issuedAt: Date.UTC(2026, 10, 2, 9), eInvoice: true, sha256: null },
          { id: 12, number: 5, kind: 'cancellation', advanceRate: null, dealId: 3, issuedAt: Date.UTC(2026, 10, 3, 9), eInvoice: true, sha256: null },
        ],
      },
    })
    expect(html).toContain('<a href="/api/invoices/11" download="RE-00004.pdf">Rechnung RE-00004</a>')
    expect(html).toContain('<a href="/api/invoices/12" download="RE-00005.pdf">Stornorechnung RE-00005</a>')
    expect(text(html)).toContain('02.11.2026, 10:00 · E-Rechnung (Factur-X)')
    // The Stornorechnung comes with the cancellation: no button issues one by hand.
    expect(html).not.toMatch(/>Rechnung ausstellen</)
  })

  it('lists the Anzahlungsrechnungen of an instalment plan with their rate, and their Stornorechnungen', () => {
    const html = render([deal({ status: 'cancelled', statusLabel: 'Abgebrochen' })], {
      3: {
        ...none,
        invoices: [
          { id: 21, number: 7, kind: 'advance', advanceRate: 0, dealId: 3, issuedAt: Date.UTC(2026, 10, 2, 9), eInvoice: false, sha256: null },
          { id: 22, number: 8, kind: 'advance', advanceRate: 1, dealId: 3, issuedAt: Date.UTC(2026, 11, 2, 9), eInvoice: false, sha256: null },
          { id: 23, number: 9, kind: 'cancellation', advanceRate: 1, dealId: 3, issuedAt: Date.UTC(2026, 11, 3, 9), eInvoice: false, sha256: null },
        ],
      },
    })
    expect(html).toContain('<a href="/api/invoices/21" download="RE-00007.pdf">Anzahlungsrechnung RE-00007 (Anzahlung)</a>')
    expect(html).toContain('<a href="/api/invoices/22" download="RE-00008.pdf">Anzahlungsrechnung RE-00008 (Rate 1)</a>')
    expect(html).toContain('<a href="/api/invoices/23" download="RE-00009.pdf">Stornorechnung RE-00009 (Rate 1)</a>')
  })

  it('offers "Rechnung ausstellen" for a paid deal without one whose buyer gave the address, and says why not otherwise', () => {
    expect(render([deal()], { 3: { ...none, canIssue: true } })).toMatch(/<button[^>]*>Rechnung ausstellen<\/button>/)
    const waiting = render([deal()], { 3: { ...none, missingAddress: true } })
    expect(waiting).not.toMatch(/>Rechnung ausstellen</)
    expect(text(waiting)).toContain('Der Käufer hat noch keine Rechnungsanschrift angegeben.')
  })

  it('shows nothing about invoices while they are off or none is due', () => {
    for (const html of [render([deal()]), render([deal({ status: 'awaiting_payment', statusLabel: 'Wartet auf Zahlung' })], { 3: none })]) {
      expect(html).not.toContain('deal-invoices')
      expect(html).not.toMatch(/Rechnung/)
    }
  })
})
