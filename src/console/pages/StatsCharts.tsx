// The Übersicht's charts, drawn by recharts (decision 049). The console's Content-Security-Policy allows no inline
// style, and recharts writes style attributes into server-rendered markup: so the server and the first render in
// the browser both draw an empty box of the chart's fixed size (they agree, and nothing moves), and the chart comes
// after hydration, where React sets its styles through the DOM, which the policy allows. recharts itself is loaded
// then, in a chunk of its own (StatsChartsDrawn.tsx). Every chart has its
// figures in a table beside it, for screen readers and for the page without script.
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react'
import type { FunnelCounts, VisitorStats } from '../../shared/stats-api.ts'
import { formatDay, formatNumber } from '../format.ts'

// recharts comes in a chunk of its own, fetched once a chart is to be drawn: the other pages never load it.
const FunnelDrawn = lazy(() => import('./StatsChartsDrawn.tsx').then((drawn) => ({ default: drawn.FunnelDrawn })))
const DailyDrawn = lazy(() => import('./StatsChartsDrawn.tsx').then((drawn) => ({ default: drawn.DailyDrawn })))

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
      {hydrated ? <Suspense fallback={null}>{children()}</Suspense> : null}
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
      {() => <FunnelDrawn steps={steps} />}
    </AfterHydration>
  )
}

export function DailyVisitsChart({ stats }: { stats: VisitorStats }) {
  const label = `Je Tag vom ${formatDay(stats.firstDay)} bis ${formatDay(stats.lastDay)}: ${formatNumber(stats.total.visitors)} Besucher, ${formatNumber(stats.total.visits)} Besuche, ${formatNumber(stats.total.formTurns)} zum Formular, ${formatNumber(stats.total.inquiries)} Anfragen`
  return (
    <AfterHydration className="stats-chart-daily" label={label}>
      {() => <DailyDrawn daily={stats.daily} />}
    </AfterHydration>
  )
}
