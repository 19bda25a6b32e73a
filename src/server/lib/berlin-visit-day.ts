// The Berlin day of a moment and when it ends: visitors are counted per Berlin day (the owner's), and the day's salt
// lives until its end.
import { addDays, berlinPartsOf, berlinTime } from './berlin.ts'

const pad = (n: number) => String(n).padStart(2, '0')

export function berlinDayOf(time: number): { day: string; next: string; endsAt: number } {
  const parts = berlinPartsOf(time)
  const next = addDays(parts, 1)
  return {
    day: `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`,
    next: `${next.year}-${pad(next.month)}-${pad(next.day)}`,
    endsAt: berlinTime(next.year, next.month, next.day, 0),
  }
}
