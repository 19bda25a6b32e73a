// The Übersicht's charts, drawn by recharts (decision 049). The console's Content-Security-Policy allows no inline
// style, and recharts writes style attributes into server-rendered markup: so the server and the first render in
// the browser both draw an empty box of the chart's fixed size (they agree, and nothing moves), and the chart comes
// after hydration, where React sets its styles through the DOM, which the policy allows. Every chart has its
// figures in a table beside it, for screen readers and for the page without script.
import { useSyncExternalStore, type ReactNode } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'
import type { FunnelCounts, VisitorStats } from '../../shared/stats-api.ts'
import { formatDay, formatNumber } from '../format.ts'

const FUNNEL = { width: 520, height: 220 } as const
const DAILY = { width: 720, height: 260 } as const

const nothingToWatch = () => () => {}

/**
 * Drawn only once the page is hydrated; before, a box of the same size. React takes the server's answer (false) for
 * the server and for hydration, and the browser's (true) right after.
 */
function AfterHydration({ className, label, children }: { className: string; label: string; children: () => ReactNode }) {
  const hydrated = useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  )
  return (
    <div className={`stats-chart ${className}`} role="img" aria-label={label}>
      {hydrated ? children() : null}
    </div>
  )
}

const funnelSteps = (counts: FunnelCounts) => [
  { step: 'Besuche', count: counts.visits },
  { step: 'Zum Formular', count: counts.formTurns },
  { step: 'Anfragen', count: counts.inquiries },
  { step: 'Angebote', count: counts.offers },
  { step: 'Abschlüsse', count: counts.deals },
]

export function FunnelChart({ counts }: { counts: FunnelCounts }) {
  const steps = funnelSteps(counts)
  const label = `Vom Besuch zum Abschluss: ${steps.map((s) => `${s.step} ${formatNumber(s.count)}`).join(', ')}`
  return (
    <AfterHydration className="stats-chart-funnel" label={label}>
      {() => (
        <BarChart {...FUNNEL} data={steps} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 24 }} accessibilityLayer={false}>
          <CartesianGrid horizontal={false} className="stats-grid" />
          <XAxis type="number" allowDecimals={false} tickFormatter={formatNumber} />
          <YAxis type="category" dataKey="step" width={120} />
          <Tooltip formatter={(value) => formatNumber(Number(value))} isAnimationActive={false} />
          <Bar dataKey="count" name="Anzahl" className="stats-bar-funnel" fill="#1f5f8b" isAnimationActive={false} />
        </BarChart>
      )}
    </AfterHydration>
  )
}

export function DailyVisitsChart({ stats }: { stats: VisitorStats }) {
  const label = `Je Tag vom ${formatDay(stats.firstDay)} bis ${formatDay(stats.lastDay)}: ${formatNumber(stats.total.visitors)} Besucher, ${formatNumber(stats.total.visits)} Besuche, ${formatNumber(stats.total.formTurns)} zum Formular, ${formatNumber(stats.total.inquiries)} Anfragen`
  return (
    <AfterHydration className="stats-chart-daily" label={label}>
      {() => (
        <LineChart {...DAILY} data={stats.daily} margin={{ top: 8, right: 24, bottom: 8, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid className="stats-grid" />
          <XAxis dataKey="day" tickFormatter={formatDay} minTickGap={24} />
          <YAxis allowDecimals={false} tickFormatter={formatNumber} />
          <Tooltip labelFormatter={(day) => formatDay(String(day))} formatter={(value) => formatNumber(Number(value))} isAnimationActive={false} />
          <Legend />
          <Line dataKey="visits" name="Besuche" className="stats-line-visits" stroke="#1f5f8b" dot={false} isAnimationActive={false} />
          <Line dataKey="visitors" name="Besucher" className="stats-line-visitors" stroke="#2e7d32" dot={false} isAnimationActive={false} />
          <Line dataKey="formTurns" name="Zum Formular" className="stats-line-form" stroke="#6a1b9a" dot={false} isAnimationActive={false} />
          <Line dataKey="inquiries" name="Anfragen" className="stats-line-inquiries" stroke="#b35c00" dot={false} isAnimationActive={false} />
        </LineChart>
      )}
    </AfterHydration>
  )
}
