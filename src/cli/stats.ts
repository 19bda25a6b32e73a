// `stats summary`: the Übersicht's visitor statistics in the terminal (decision 049), from the same function as the
// console and the weekly digest, so all three show the same numbers.
import type { Config } from '../server/config.ts'
import { decimalOf } from '../server/lib/money.ts'
import { jsonText } from '../server/lib/escape.ts'
import { domainsConfigOf } from '../server/sites/domains-document.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import { visitorStats, type StatsStore } from '../server/visits/report.ts'
import type { MinorAmount, StatsHint, WholeAmount } from '../shared/stats-api.ts'
import { table } from './format.ts'

const whole = (value: WholeAmount | null) => (value ? `${value.amount} ${value.currency}` : '-')
const revenue = (amounts: MinorAmount[]) => amounts.map((entry) => `${decimalOf(entry.amount, entry.currency)} ${entry.currency}`).join(', ') || '-'

function hintLine(hint: StatsHint): string {
  switch (hint.kind) {
    case 'no-inquiries':
      return `${hint.domain}: ${hint.visitors} visitors (${hint.visits} visits, ${hint.formTurns} turned to the form) and no inquiry: price too high or page unclear?`
    case 'offers-near-price':
      return `${hint.domain}: highest of ${hint.offers} offers ${whole(hint.highestOffer)}, ${hint.highestShare} % of the price ${whole(hint.askingPrice)}`
    case 'no-visitors':
      return `${hint.domain}: no visitor in ${hint.days} days: drop it at renewal?`
  }
}

export async function runStatsSummary(
  values: { days?: number; domain?: string | undefined; json?: boolean | undefined },
  context: { store: StatsStore; config: Config; print: (text: string) => void },
): Promise<void> {
  const { store, config, print } = context
  const current = config.domainsFile ? readDomainsFile(config.domainsFile) : domainsConfigOf({})
  const stats = await visitorStats(
    { store, domains: { current: () => current, fromFile: config.domainsFile !== undefined } },
    { days: values.days ?? 30, ...(values.domain !== undefined && { domain: values.domain }) },
  )
  if (values.json) return print(jsonText(stats))
  const { total } = stats
  const lines = [
    `${stats.firstDay} to ${stats.lastDay} (Berlin days): ${total.visitors} visitors, ${total.visits} visits, ${total.botsFiltered} bots filtered, ${total.formTurns} turned to the form, ${total.inquiries} inquiries, ${total.offers} offers, ${total.deals} deals, revenue ${revenue(total.revenue)}`,
  ]
  if (stats.names.length > 0) {
    lines.push(
      '',
      table(
        ['Domain', 'Visitors', 'Visits', 'Bots', 'Form', 'Inquiries', 'Offers', 'Highest', 'Median', '% of price', 'Deals', 'Revenue', 'Top source'],
        stats.names.map((name) => [
          name.domain,
          name.visitors,
          name.visits,
          name.botsFiltered,
          name.formTurns,
          name.inquiries,
          name.offers,
          whole(name.highestOffer),
          whole(name.medianOffer),
          name.highestShare === null ? '-' : `${name.highestShare} %`,
          name.deals,
          revenue(name.revenue),
          name.sources[0]?.key ?? '-',
        ]),
      ),
    )
  }
  if (stats.hints.length > 0) lines.push('', 'Hints:', ...stats.hints.map((hint) => `- ${hintLine(hint)}`))
  print(lines.join('\n'))
}
