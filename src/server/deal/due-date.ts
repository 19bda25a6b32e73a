// A deadline the owner gives as a day (console, CLI): the end of that day in Berlin, as the buyer's page and mails
// show every deadline (decision 037).
import { lazy } from '../../shared/lazy.ts'
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const MINUTE_MS = 60 * 1000
const offsetFormat = lazy(() => new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' }))

/** Berlin's offset from UTC at that moment, in ms (+1 h in winter, +2 h in summer). */
function berlinOffsetMs(at: number): number {
  const name =
    offsetFormat()
      .formatToParts(new Date(at))
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT'
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) * MINUTE_MS : 0
}

/** "2026-12-31" → 31 December 2026, 23:59 in Berlin (ms); null for anything that is no calendar day. */
export function endOfBerlinDay(text: string): number | null {
  const match = DAY.exec(text.trim())
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const start = new Date(Date.UTC(year, month - 1, day))
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day) return null
  // Midnight after the day in Berlin (DST never switches at midnight there), a minute before it: 23:59 on the page.
  const nextMidnightUtc = Date.UTC(year, month - 1, day + 1)
  return nextMidnightUtc - berlinOffsetMs(nextMidnightUtc) - MINUTE_MS
}
