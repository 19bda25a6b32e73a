// The visitor statistics as the owner reads them (decision 049): the console's Übersicht, `domain-lander stats` and
// the weekly digest all ask here, so they show the same numbers.
import { HINT_RULES, type FunnelCounts, type KeyCount, type MinorAmount, type NameStats, type StatsHint, type VisitorStats } from '../../shared/stats-api.ts'
import { addDays } from '../lib/berlin.ts'
import { berlinDayOf } from '../lib/berlin-visit-day.ts'
import { displayHost } from '../sites/host.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { DomainSettings } from '../sites/settings.ts'
import type { Store } from '../store/types.ts'

/** Hints of one kind shown at most (the rest is in the table and the CSV). */
const HINTS_PER_KIND = 20
const TOP_KEYS = 12

const dayText = (d: { year: number; month: number; day: number }) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`
const parseDay = (day: string) => ({ year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)), day: Number(day.slice(8, 10)) })
/** The Berlin day `days` before `day`. */
const dayBefore = (day: string, days: number) => dayText(addDays(parseDay(day), -days))

const emptyCounts = (): FunnelCounts => ({ visitors: 0, visits: 0, botsFiltered: 0, repeats: 0, formTurns: 0, inquiries: 0, offers: 0, deals: 0, revenue: [] })

function addRevenue(revenue: MinorAmount[], amount: number, currency: string) {
  const found = revenue.find((entry) => entry.currency === currency)
  if (found) found.amount += amount
  else revenue.push({ amount, currency })
}

function topKeys(counts: Map<string, number>): KeyCount[] {
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, TOP_KEYS)
}

const median = (sorted: number[]) => {
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2)
}

export async function visitorStats(
  deps: {
    store: Pick<Store, 'visitCounts' | 'firstVisitDay' | 'dailyStats' | 'offersSince' | 'listDeals'>
    domains: Pick<DomainRegistry, 'current' | 'fromFile'>
  },
  options: { days: number; now?: number; domain?: string },
): Promise<VisitorStats> {
  const { store, domains } = deps
  const { days, now = Date.now() } = options
  const lastDay = berlinDayOf(now).day
  const firstDay = dayBefore(lastDay, days - 1)
  const quietSince = dayBefore(lastDay, HINT_RULES.quietDays - 1)
  const since = Date.parse(`${firstDay}T00:00:00Z`) - 2 * 3_600_000
  const [counts, quietCounts, firstCounted, stats, offers, deals] = await Promise.all([
    store.visitCounts({ sinceDay: firstDay, ...(options.domain !== undefined && { domain: options.domain }) }),
    days >= HINT_RULES.quietDays ? null : store.visitCounts({ sinceDay: quietSince }),
    store.firstVisitDay(),
    store.dailyStats({ sinceDay: firstDay, ...(options.domain !== undefined && { domain: options.domain }) }),
    store.offersSince(since),
    store.listDeals(),
  ])
  const config = domains.current()
  const settingsOf = (ascii: string): DomainSettings =>
    (ascii.startsWith('*.') ? config.entry(ascii) : null) ?? config.resolve(ascii)?.settings ?? config.default

  const byName = new Map<string, NameStats & { sourceCounts: Map<string, number>; languageCounts: Map<string, number>; amounts: number[] }>()
  const entry = (ascii: string) => {
    let found = byName.get(ascii)
    if (!found) {
      const settings = settingsOf(ascii)
      const currency = settings.currency ?? 'EUR'
      found = {
        domain: displayHost(ascii),
        domainAscii: ascii,
        ...emptyCounts(),
        highestOffer: null,
        medianOffer: null,
        askingPrice: settings.price !== undefined ? { amount: settings.price, currency } : null,
        highestShare: null,
        sources: [],
        languages: [],
        sourceCounts: new Map(),
        languageCounts: new Map(),
        amounts: [],
      }
      byName.set(ascii, found)
    }
    return found
  }
  const dayList: string[] = []
  for (let day = firstDay; day <= lastDay; day = dayText(addDays(parseDay(day), 1))) dayList.push(day)
  const daily = dayList.map((day) => ({ day, visitors: 0, visits: 0, formTurns: 0, inquiries: 0 }))
  const dayIndex = new Map(dayList.map((day, i) => [day, i]))

  // The range ends with `now`'s day: a report for a past week (the digest's) leaves out what came after it.
  for (const row of counts) {
    if (row.day > lastDay) continue
    const name = entry(row.domain)
    const slot = daily[dayIndex.get(row.day) ?? -1]
    switch (row.metric) {
      case 'visit':
        name.visits += row.count
        if (slot) slot.visits += row.count
        break
      case 'visitor':
        name.visitors += row.count
        if (slot) slot.visitors += row.count
        break
      case 'form':
        name.formTurns += row.count
        if (slot) slot.formTurns += row.count
        break
      case 'filtered':
        if (row.key === 'repeat') name.repeats += row.count
        else name.botsFiltered += row.count
        break
      case 'source':
        name.sourceCounts.set(row.key, (name.sourceCounts.get(row.key) ?? 0) + row.count)
        break
      case 'language':
        name.languageCounts.set(row.key, (name.languageCounts.get(row.key) ?? 0) + row.count)
        break
    }
  }
  for (const row of stats) {
    if (row.inquiries === 0 || row.day > lastDay) continue
    entry(row.domain).inquiries += row.inquiries
    const slot = daily[dayIndex.get(row.day) ?? -1]
    if (slot) slot.inquiries += row.inquiries
  }
  for (const offer of offers) {
    if (options.domain !== undefined && offer.domain !== options.domain) continue
    const day = berlinDayOf(offer.createdAt).day
    if (day < firstDay || day > lastDay) continue
    const name = entry(offer.domain)
    name.offers++
    // Offers compare in the name's currency, the one its price is in.
    if (offer.currency === (settingsOf(offer.domain).currency ?? 'EUR')) name.amounts.push(offer.amount)
  }
  for (const deal of deals) {
    if (options.domain !== undefined && deal.domain !== options.domain) continue
    if (deal.status !== 'cancelled' && deal.createdAt >= since && deal.createdAt <= now) entry(deal.domain).deals++
    if (deal.status === 'completed' && deal.completedAt !== null && deal.completedAt >= since && deal.completedAt <= now)
      addRevenue(entry(deal.domain).revenue, deal.amount, deal.currency)
  }

  const total = { ...emptyCounts(), sources: new Map<string, number>(), languages: new Map<string, number>() }
  const names: NameStats[] = []
  for (const { sourceCounts, languageCounts, amounts, ...name } of byName.values()) {
    if (amounts.length > 0) {
      amounts.sort((a, b) => a - b)
      const currency = settingsOf(name.domainAscii).currency ?? 'EUR'
      name.highestOffer = { amount: amounts.at(-1)!, currency }
      name.medianOffer = { amount: median(amounts), currency }
      if (name.askingPrice && name.askingPrice.amount > 0) name.highestShare = Math.floor((name.highestOffer.amount * 100) / name.askingPrice.amount)
    }
    name.sources = topKeys(sourceCounts)
    name.languages = topKeys(languageCounts)
    for (const key of ['visitors', 'visits', 'botsFiltered', 'repeats', 'formTurns', 'inquiries', 'offers', 'deals'] as const) total[key] += name[key]
    for (const entry of name.revenue) addRevenue(total.revenue, entry.amount, entry.currency)
    for (const [key, count] of sourceCounts) total.sources.set(key, (total.sources.get(key) ?? 0) + count)
    for (const [key, count] of languageCounts) total.languages.set(key, (total.languages.get(key) ?? 0) + count)
    names.push(name)
  }
  names.sort((a, b) => b.visitors - a.visitors || b.visits - a.visits || a.domainAscii.localeCompare(b.domainAscii))

  const hints: StatsHint[] = []
  const noInquiries = names.filter((name) => name.visitors >= HINT_RULES.manyVisitors && name.inquiries === 0)
  for (const name of noInquiries.slice(0, HINTS_PER_KIND))
    hints.push({ kind: 'no-inquiries', domain: name.domain, visitors: name.visitors, visits: name.visits, formTurns: name.formTurns })
  const nearPrice = names
    .filter((name) => name.highestShare !== null && name.highestShare >= HINT_RULES.nearPrice)
    .sort((a, b) => b.highestShare! - a.highestShare!)
  for (const name of nearPrice.slice(0, HINTS_PER_KIND)) {
    hints.push({
      kind: 'offers-near-price',
      domain: name.domain,
      offers: name.offers,
      highestOffer: name.highestOffer!,
      askingPrice: name.askingPrice!,
      highestShare: name.highestShare!,
    })
  }
  // Only once counting has run for the whole time, and only for the names the domains file lists.
  if (domains.fromFile && options.domain === undefined && firstCounted !== null && firstCounted <= quietSince) {
    const visited = new Set<string>()
    for (const row of quietCounts ?? counts) if (row.metric === 'visit' && row.day >= quietSince) visited.add(row.domain)
    let shown = 0
    for (const ascii of config.names()) {
      if (visited.has(ascii)) continue
      hints.push({ kind: 'no-visitors', domain: displayHost(ascii), days: HINT_RULES.quietDays })
      if (++shown >= HINTS_PER_KIND) break
    }
  }
  return {
    days,
    firstDay,
    lastDay,
    total: { ...total, sources: topKeys(total.sources), languages: topKeys(total.languages) },
    daily,
    names,
    hints,
  }
}
