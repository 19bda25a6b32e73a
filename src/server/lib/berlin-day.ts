// The owner's days are Berlin's: "from 15 January to 15 January" is 00:00 to 24:00 there, in the console's filter and
// the CLI's --since/--until alike, whatever time zone the machine runs in. Both ask here, so the same filter always
// gives the same rows.
import { berlinTime } from './berlin.ts'

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Year, month and day of a day written YYYY-MM-DD; null for anything else, also for 2026-02-30. */
function calendarDay(text: string): { year: number; month: number; day: number } | null {
  const match = DAY.exec(text)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? { year, month, day } : null
}

/** Whether `text` is a day of the calendar written YYYY-MM-DD. */
export const isCalendarDay = (text: string) => calendarDay(text) !== null

/** Epoch milliseconds of 00:00 on this day in Europe/Berlin; `day` may be one past the month's end (the next day). */
const midnight = (year: number, month: number, day: number) => berlinTime(year, month, day, 0)

/**
 * The time a filter of whole Berlin days covers, both days inclusive: from 00:00 on `since` to 00:00 on the day
 * after `until` (exclusive), as the store's filters take it. A day left out leaves its end open.
 */
export function berlinDayRange(days: { since?: string | undefined; until?: string | undefined }): { since?: number; until?: number } {
  const [since, until] = [days.since, days.until].map((text) => {
    if (text === undefined) return undefined
    const day = calendarDay(text)
    if (!day) throw new RangeError(`not a day: ${text}`)
    return day
  })
  return {
    ...(since && { since: midnight(since.year, since.month, since.day) }),
    // Date.UTC rolls the 32nd over into the next month (and the year), as the day after needs.
    ...(until && { until: midnight(until.year, until.month, until.day + 1) }),
  }
}
