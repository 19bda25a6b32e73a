// Wall-clock times in Europe/Berlin, where the owner lives: "Monday 08:00" is 07:00 UTC in winter and 06:00 UTC in
// summer, and a day there has 23 or 25 hours twice a year.

import { lazy } from '../../shared/lazy.ts'

const parts = lazy(
  () =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Berlin',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    }),
)

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

export interface BerlinTime {
  year: number
  /** 1 to 12. */
  month: number
  day: number
  hour: number
  minute: number
  second: number
  /** 1 (Monday) to 7 (Sunday), as ISO 8601 counts. */
  weekday: number
}

export function berlinPartsOf(time: number): BerlinTime {
  const found = Object.fromEntries(
    parts()
      .formatToParts(new Date(time))
      .map((part) => [part.type, part.value]),
  )
  return {
    year: Number(found.year),
    month: Number(found.month),
    day: Number(found.day),
    hour: Number(found.hour),
    minute: Number(found.minute),
    second: Number(found.second),
    weekday: WEEKDAYS.indexOf(found.weekday!) + 1,
  }
}

/** How far Berlin's clock is ahead of UTC at this moment. */
function offsetAt(time: number): number {
  const p = berlinPartsOf(time)
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - (time - (time % 1000))
}

/**
 * The moment Berlin's clocks show this date and time. A time the spring change skips (02:30 on the last Sunday of
 * March) is taken an hour later; one the autumn change shows twice is its first occurrence.
 */
export function berlinTime(year: number, month: number, day: number, hour: number, minute = 0): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  // Two rounds: the offset two hours before is the offset at the answer unless a change lies between; only a skipped
  // time gives two different answers, and the later one is the time after the change.
  const first = wall - offsetAt(wall - 2 * 3_600_000)
  const second = wall - offsetAt(first)
  return Math.max(first, second)
}

/** The calendar day `days` after (or before) this one, as year, month and day. */
export function addDays(day: { year: number; month: number; day: number }, days: number) {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days))
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}
