// The Store's methods over the negotiation and the deal's reminders (decision 060), for the callers that do not hold
// a unit of work themselves (the tests, the console's templates): each one query over the tables' functions, or one
// unit of work composed as the use cases (deal/actions.ts, deal/deadlines.ts) compose it.
import type { DialectSpecifics } from './dialect.ts'
import { recordDealReminder } from './deal-reminders.ts'
import { counterUpdate, negotiate } from './negotiation.ts'
import type { Db } from './tables/db.ts'
import { dealRemindersDue } from './tables/deal-deadlines.ts'
import { rateRemindersDue } from './tables/deal-rates.ts'
import { dealTemplates, setDealTemplate } from './tables/deal-templates.ts'
import { lockDeal } from './tables/deals.ts'
import { expireCounterOffers } from './tables/inquiries.ts'
import type { DealReminderStore, DealStore } from './types.ts'
import { writer } from './dialect.ts'
import { unitOfWork } from './unit-of-work.ts'

export function dealStore(db: Db, dialect: DialectSpecifics): DealStore & DealReminderStore {
  const { guard } = dialect
  const write = writer(dialect)
  const transact = unitOfWork(db, dialect)
  return {
    counterOffer: (id, step) => transact((work) => negotiate(work, id, 'counter', step, counterUpdate(step))),
    accept: (id, step) => transact((work) => negotiate(work, id, 'accept', step, {})),
    decline: (id, step) => transact((work) => negotiate(work, id, 'decline', { ...step, amount: null }, {})),
    expireCounterOffers: (now) => write(() => expireCounterOffers(db, now)),
    dealTemplates: () => guard(() => dealTemplates(db)),
    setDealTemplate: (kind, text) => write(() => setDealTemplate(db, kind, text)),
    dealRemindersDue: (now) => guard(() => dealRemindersDue(db, now)),
    rateRemindersDue: (now) => guard(() => rateRemindersDue(db, now)),
    queueDealReminder: (id, reminder, mail, now, notify) =>
      transact(async (work) => {
        const deal = await lockDeal(work, id)
        return deal !== null && recordDealReminder(work.trx, deal, reminder, mail, now, notify)
      }),
  }
}
