// An instalment plan ("Ratenzahlung", docs/deals.md, decision 042): the agreed amount split into an optional down
// payment and 2 to 60 monthly rates, exact to the minor unit. Pure: the deal's acceptance stores what it returns.
import { endOfBerlinDay } from './due-date.ts'
import { addDays, berlinPartsOf } from '../lib/berlin.ts'

export const MIN_RATES = 2
export const MAX_RATES = 60

export type PlanTransfer = 'after-last' | 'at-once'

/** What the owner offers: so many monthly rates, a down payment (minor units, 0 for none), when the name moves. */
export interface InstalmentPlan {
  rates: number
  downPayment: number
  transfer: PlanTransfer
}

/** One payment of the plan: number 0 is the down payment, 1 … n the monthly rates. */
export interface ScheduledRate {
  number: number
  /** Minor units. */
  amount: number
  /** The end of the due day in Berlin (ms). */
  dueAt: number
}

export type PlanProblem = 'rates' | 'down-payment'

/** Why a plan cannot split this total: a count outside 2–60, or a down payment that leaves less than a cent a rate. */
export function planProblem(total: number, plan: Pick<InstalmentPlan, 'rates' | 'downPayment'>): PlanProblem | null {
  if (!Number.isInteger(plan.rates) || plan.rates < MIN_RATES || plan.rates > MAX_RATES) return 'rates'
  if (!Number.isInteger(plan.downPayment) || plan.downPayment < 0 || total - plan.downPayment < plan.rates) return 'down-payment'
  return null
}

/**
 * The amounts: the rest after the down payment split into equal rates, the cents that do not divide going one each to
 * the first rates, so no two rates differ by more than a cent and they add up to the total exactly.
 */
export function splitAmount(total: number, rates: number, downPayment = 0): number[] {
  if (!Number.isSafeInteger(total) || planProblem(total, { rates, downPayment }) !== null) throw new RangeError('not a plan for this total')
  const rest = total - downPayment
  const base = Math.floor(rest / rates)
  const extra = rest - base * rates
  return Array.from({ length: rates }, (_, i) => base + (i < extra ? 1 : 0))
}

const DAY = (year: number, month: number, day: number) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`

/** The last day of a month (1–12). */
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * The same day `months` later in Berlin's calendar, or the month's last day when it is shorter (31 January → 28 or
 * 29 February → 31 March: always from the first date, so one short month does not shift the rest).
 */
export function monthsLater(first: { year: number; month: number; day: number }, months: number) {
  const index = first.month - 1 + months
  const year = first.year + Math.floor(index / 12)
  const month = (index % 12) + 1
  return { year, month, day: Math.min(first.day, daysIn(year, month)) }
}

/**
 * The schedule: the first payment (the down payment, else rate 1) due at the end of the Berlin day of `firstDue`,
 * the rates monthly from there (with a down payment, rate 1 a month after it).
 */
export function instalmentSchedule(total: number, plan: Pick<InstalmentPlan, 'rates' | 'downPayment'>, firstDue: number): ScheduledRate[] {
  const amounts = splitAmount(total, plan.rates, plan.downPayment)
  const start = berlinPartsOf(firstDue)
  const anchor = { year: start.year, month: start.month, day: start.day }
  const endOf = (d: { year: number; month: number; day: number }) => endOfBerlinDay(DAY(d.year, d.month, d.day))!
  const offset = plan.downPayment > 0 ? 1 : 0
  const rates = amounts.map((amount, i) => ({ number: i + 1, amount, dueAt: endOf(monthsLater(anchor, i + offset)) }))
  return plan.downPayment > 0 ? [{ number: 0, amount: plan.downPayment, dueAt: endOf(anchor) }, ...rates] : rates
}

/** A rate's own payment reference: the deal's with the rate's number ("DL-2026-0042-R03"; the down payment R00). */
export const rateReference = (dealReference: string, number: number) => `${dealReference}-R${String(number).padStart(2, '0')}`

/** The Berlin day `days` after a moment, as the first due day of a plan made then. */
export const berlinDayAfter = (at: number, days: number) => {
  const p = berlinPartsOf(at)
  const d = addDays({ year: p.year, month: p.month, day: p.day }, days)
  return endOfBerlinDay(DAY(d.year, d.month, d.day))!
}
