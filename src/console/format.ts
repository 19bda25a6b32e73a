import { lazy } from '../shared/lazy.ts'

// Times and numbers as the owner reads them (de-DE). The time zone is fixed: the server renders with Node's zone
// and the browser hydrates with its own, and both must produce the same text.
const TIME_ZONE = 'Europe/Berlin'
const dateTime = lazy(() => new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: TIME_ZONE }))
const dateOnly = lazy(() => new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: TIME_ZONE }))
const dayMonth = lazy(() => new Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'numeric', timeZone: 'UTC' }))
const integer = lazy(() => new Intl.NumberFormat('de-DE'))

export const formatTime = (ms: number) => dateTime().format(ms)
export const formatNumber = (value: number) => integer().format(value)
/** A UTC day "YYYY-MM-DD" as "3.5." */
export const formatDay = (day: string) => dayMonth().format(Date.parse(`${day}T00:00:00Z`))

/** "gerade eben", "vor 5 Min.", "vor 3 Std.", "vor 2 Tagen", then the date. */
export function formatAge(ms: number, now: number): string {
  const minutes = Math.floor(Math.max(0, now - ms) / 60_000)
  if (minutes < 1) return 'gerade eben'
  if (minutes < 60) return `vor ${minutes} Min.`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `vor ${hours} Std.`
  const days = Math.floor(hours / 24)
  if (days < 30) return days === 1 ? 'vor 1 Tag' : `vor ${days} Tagen`
  return dateOnly().format(ms)
}

export const formatAttempts = (attempts: number) => (attempts === 1 ? '1 Versuch' : `${formatNumber(attempts)} Versuche`)
