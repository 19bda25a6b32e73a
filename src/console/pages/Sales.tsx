// "Verkäufe": every deal, open ones by their next deadline (overdue ones marked), then the finished ones; each with
// its steps (DealSteps).
import { useState } from 'react'
import { CONSOLE_PATHS } from '../../shared/console-api.ts'
import { type DealSummary, type SalesPage as SalesData } from '../../shared/deal-api.ts'
import { BANK_STATEMENT_PATH } from '../../shared/payments-api.ts'
import { DealFacts, DealSteps } from './DealSteps.tsx'
import { DealInvoices } from './DealInvoices.tsx'

export function SalesPage({ initial }: { initial: SalesData }) {
  const [deals, setDeals] = useState(initial.deals)
  const invoicesOf = (id: number) => initial.invoices?.[id]
  const replace = (changed: DealSummary) => setDeals((list) => list.map((deal) => (deal.id === changed.id ? changed : deal)))
  return (
    <div className="sales">
      <h1>Verkäufe</h1>
      <p>
        <a href={BANK_STATEMENT_PATH}>Kontoauszug importieren</a> <span className="muted">(CAMT.053: Zahlungen den Käufen zuordnen)</span>
      </p>
      {deals.length === 0 ? (
        <p className="empty">Noch keine Verkäufe. Ein Verkauf entsteht, wenn Sie ein Angebot mit Betrag annehmen.</p>
      ) : (
        <ul className="sales-list">
          {deals.map((deal) => (
            <li key={deal.id} className={deal.overdue ? 'sale overdue' : 'sale'}>
              <h2>
                {deal.domain} <span className="muted">· {deal.statusLabel}</span>
              </h2>
              <p>
                <a href={CONSOLE_PATHS.inquiry(deal.inquiryId)}>
                  {deal.buyer.name} &lt;{deal.buyer.email}&gt;
                </a>
              </p>
              <DealFacts deal={deal} />
              <DealSteps deal={deal} onChange={replace} />
              {invoicesOf(deal.id) && <DealInvoices deal={deal} initial={invoicesOf(deal.id)!} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
