// A domain's days as two rows of bars (views above, inquiries below), each scaled to its own maximum: inquiries
// are far fewer than views and would vanish on a shared scale. Plain SVG, no library.
import type { OverviewDomain } from '../../shared/console-api.ts'
import { formatDay, formatNumber } from '../format.ts'

const ROW = 20
const GAP = 4

export function DailyChart({ domain }: { domain: OverviewDomain }) {
  const days = domain.daily
  const maxViews = Math.max(1, ...days.map((day) => day.views))
  const maxInquiries = Math.max(1, ...days.map((day) => day.inquiries))
  const width = Math.max(1, days.length) * 3
  const first = days[0]
  const last = days[days.length - 1]
  const label =
    `${domain.domain}: ${formatNumber(domain.views)} Aufrufe und ${formatNumber(domain.inquiries)} Anfragen` +
    (first && last ? ` vom ${formatDay(first.day)} bis ${formatDay(last.day)}` : '') +
    `; höchstens ${formatNumber(maxViews)} Aufrufe und ${formatNumber(maxInquiries)} Anfragen an einem Tag`
  return (
    <svg className="chart" role="img" aria-label={label} viewBox={`0 0 ${width} ${2 * ROW + GAP}`} preserveAspectRatio="none" focusable="false">
      <line className="chart-axis" x1="0" x2={width} y1={ROW} y2={ROW} />
      <line className="chart-axis" x1="0" x2={width} y1={2 * ROW + GAP} y2={2 * ROW + GAP} />
      {days.map((day, index) => {
        const views = (day.views / maxViews) * ROW
        const inquiries = (day.inquiries / maxInquiries) * ROW
        return (
          <g key={day.day}>
            {views > 0 && <rect className="bar-views" x={index * 3} y={ROW - views} width="2" height={views} />}
            {inquiries > 0 && <rect className="bar-inquiries" x={index * 3} y={2 * ROW + GAP - inquiries} width="2" height={inquiries} />}
          </g>
        )
      })}
    </svg>
  )
}
