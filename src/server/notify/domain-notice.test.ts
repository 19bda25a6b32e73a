// What domain.unreachable and domain.expiring say: public facts only, and what DNS answered stays text in every
// preset's markup.
import { expect, test } from 'vitest'
import { domainNoticeMessage } from './domain-notice.ts'
import { markdownText, safeJson, slackText } from './message.ts'

const item = (event: 'unreachable' | 'expiring', pointingDetail: string) => ({
  id: 7,
  domain: 'xn--mnchen-3ya.de',
  event,
  facts: { time: Date.parse('2026-11-26T08:00:00Z'), pointingDetail, expiresAt: Date.parse('2026-12-06T10:00:00Z') },
  webhookUrl: 'https://hooks.example/x',
  attempts: 0,
  createdAt: 0,
})

test('a name pointing elsewhere: title, payload and text, with a delivery id of its own', () => {
  const message = domainNoticeMessage(item('unreachable', '198.51.100.7'), 'https://konsole.example/domains')
  expect(message.title).toBe('Domain zeigt nicht hierher: münchen.de')
  expect(message.deliveryId).toBe('domain-7')
  expect(message.payload).toEqual({
    event: 'domain.unreachable',
    delivery: 'domain-7',
    domain: 'xn--mnchen-3ya.de',
    domainUnicode: 'münchen.de',
    time: '2026-11-26T08:00:00.000Z',
    pointsTo: '198.51.100.7',
    expiresAt: '2026-12-06T10:00:00.000Z',
    console: 'https://konsole.example/domains',
  })
  expect(message.text()).toBe('Domain zeigt nicht hierher: münchen.de (zeigt auf 198.51.100.7)\n\nhttps://konsole.example/domains')
  expect(domainNoticeMessage(item('expiring', ''), null).text()).toBe('Domain läuft bald ab: münchen.de (läuft ab am 06.12.2026)')
})

test('markup from a DNS answer makes no mention, link or markup in Slack, Mattermost or a plain webhook', () => {
  const message = domainNoticeMessage(item('unreachable', '<!channel> <https://evil.example|hier> *fett*'), null)
  expect(message.text(slackText)).toContain('&lt;!channel&gt; &lt;https://evil.example|hier&gt;')
  expect(message.text(markdownText)).toContain('\\<\\!channel\\> \\<https\\://evil\\.example\\|hier\\> \\*fett\\*')
  expect(safeJson(message.payload)).not.toMatch(/[<>]/)
})
