import { expect, test } from 'vitest'
import { escapeHtml } from './html.ts'

test('every character that could end text or an attribute value is escaped, the rest stays', () => {
  expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;')
  expect(escapeHtml('Grüße, 4.900 €')).toBe('Grüße, 4.900 €')
})
