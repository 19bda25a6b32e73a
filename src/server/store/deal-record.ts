// The store's deal methods (docs/deals.md, decision 033) for the callers that still ask the Store: each one query over
// the deals table's functions (tables/deals.ts), or, for a step taken without a use case of its own (changeDeal), one
// unit of work as deal/steps.ts takes it.
import type { DialectSpecifics } from './dialect.ts'
import { recordDealStep } from './deal-step.ts'
import type { Db } from './tables/db.ts'
import * as deals from './tables/deals.ts'
import type { DealRecordStore } from './types.ts'
import { unitOfWork } from './unit-of-work.ts'

export function dealRecordStore(db: Db, dialect: DialectSpecifics): DealRecordStore {
  const { guard } = dialect
  const transact = unitOfWork(db, dialect)
  return {
    getDeal: (id) => guard(() => deals.getDeal(db, id)),
    dealByLink: (linkHash) => guard(() => deals.dealByLink(db, linkHash)),
    openDealOf: (inquiryId) => guard(() => deals.openDealOf(db, inquiryId)),
    listDeals: (filter) => guard(() => deals.listDeals(db, filter)),
    changeDeal(id, change) {
      return transact(async (work) => {
        const deal = await deals.lockDeal(work, id)
        if (!deal) return { status: 'not-found' } as const
        if (!change.from.includes(deal.status)) return { status: 'wrong-state', current: deal.status } as const
        return recordDealStep(work.trx, deal, change)
      })
    },
    dealOfDomain: (domain) => guard(() => deals.dealOfDomain(db, domain)),
    soldDomains: () => guard(() => deals.soldDomains(db)),
    dealsToComplete: (now) => guard(() => deals.dealsToComplete(db, now)),
    eraseTransferCodes: (completedBy) => transact((work) => deals.eraseTransferCodes(work.trx, completedBy)),
    dealTransferCode: (id) => guard(() => deals.dealTransferCode(db, id)),
  }
}
