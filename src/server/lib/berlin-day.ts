// The owner's days are Berlin's: "from 15 January to 15 January" is 00:00 to 24:00 there, in the console's filter and
// the CLI's --since/--until alike, whatever time zone the machine runs in. Both ask here, so the same filter always
// gives the same rows.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

const berlinParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Berlin',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/** How far Berlin's clock is ahead of UTC at this moment (one or two hours). */
function offsetAt(time: number): number {
  const parts = Object.fromEntries(berlinParts.formatToParts(new Date(time)).map((part) => [part.type, part.value]))
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second))
  return wall - (time - (time % 1000))
}

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
function midnight(year: number, month: number, day: number): number {
  const utcMidnight = Date.UTC(year, month - 1, day)
  // Berlin's midnight lies one or two hours before UTC's: the offset at a first guess, then at the answer (the
  // clocks never change at midnight there, so two rounds settle it).
  const guess = utcMidnight - offsetAt(utcMidnight)
  return utcMidnight - offsetAt(guess)
}

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
