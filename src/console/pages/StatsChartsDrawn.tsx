// The Übersicht's charts as recharts draws them (decision 049), in a chunk of their own: recharts is most of the
// console's script, and only this page needs it. StatsCharts.tsx loads it after hydration.
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'
import type { VisitorStats } from '../../shared/stats-api.ts'
import { formatDay, formatNumber } from '../format.ts'

const FUNNEL = { width: 520, height: 220 } as const
const DAILY = { width: 720, height: 260 } as const

export function FunnelDrawn({ steps }: { steps: { step: string; count: number }[] }) {
  return (
    <BarChart {...FUNNEL} data={steps} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 24 }} accessibilityLayer={false}>
      <CartesianGrid horizontal={false} className="stats-grid" />
      <XAxis type="number" allowDecimals={false} tickFormatter={formatNumber} />
      <YAxis type="category" dataKey="step" width={120} />
      <Tooltip formatter={(value) => formatNumber(Number(value))} isAnimationActive={false} />
      <Bar dataKey="count" name="Anzahl" className="stats-bar-funnel" fill="#1f5f8b" isAnimationActive={false} />
    </BarChart>
  )
}

export function DailyDrawn({ daily }: { daily: VisitorStats['daily'] }) {
  return (
    <LineChart {...DAILY} data={daily} margin={{ top: 8, right: 24, bottom: 8, left: 0 }} accessibilityLayer={false}>
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
  )
}
