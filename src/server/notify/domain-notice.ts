// What domain.unreachable and domain.expiring say (docs/notifications.md): public facts about a listed name only.
// The detail of where a name points came from DNS: text, never markup (safeJson, and the presets' escaping).
import { expiryLabel } from '../../shared/domain-checks.ts'
import { displayHost } from '../sites/host.ts'
import type { DomainNoticeItem } from '../store/types.ts'
import type { NoticeMessage } from './send.ts'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

const TITLE = { unreachable: 'Domain zeigt nicht hierher', expiring: 'Domain läuft bald ab' } as const

export function domainNoticeMessage(item: DomainNoticeItem, link: string | null): NoticeMessage {
  const domain = displayHost(item.domain)
  const title = `${TITLE[item.event]}: ${domain}`
  return {
    deliveryId: `domain-${item.id}`,
    link,
    title,
    payload: {
      event: `domain.${item.event}`,
      delivery: `domain-${item.id}`,
      domain: item.domain,
      domainUnicode: domain,
      time: new Date(item.facts.time).toISOString(),
      ...(item.event === 'unreachable' ? { pointsTo: item.facts.pointingDetail } : {}),
      expiresAt: iso(item.facts.expiresAt),
      console: link,
    },
    text: (outsideText = (text) => text) => {
      const what =
        item.event === 'unreachable' ? `zeigt auf ${outsideText(item.facts.pointingDetail)}` : expiryLabel({ expiry: 'known', expiresAt: item.facts.expiresAt })
      return [`${title} (${what})`, ...(link ? ['', link] : [])].join('\n')
    },
  }
}
