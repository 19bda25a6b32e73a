import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ConsoleState } from '../../shared/console-api.ts'
import { createConsoleRenderer } from './render.ts'

// The console as built (tests/helpers/global-setup.ts builds it).
const consoleDir = path.resolve(import.meta.dirname, '../../../dist/console')

const BREAKOUTS = '</script><script>alert(1)</script> <!-- <script> </SCRIPT > <\u2028 \u2029'

const state: ConsoleState = {
  page: 'inquiry',
  data: {
    id: 1,
    domain: 'example.com',
    domainAscii: 'example.com',
    name: BREAKOUTS,
    email: 'a@example.org',
    message: `${BREAKOUTS}\n<!--app-state--> <!--app-html-->`,
    language: 'de',
    createdAt: Date.UTC(2025, 4, 20),
    status: 'new',
    spamReason: null,
    offer: null,
    belowMinimum: false,
    price: null,
    minimum: null,
    ownerMail: null,
    replies: [],
    currency: 'EUR',
    counter: null,
    counterDays: 7,
    checkout: null,
    deal: null,
  },
}

describe('the console renderer', () => {
  const renderer = createConsoleRenderer(consoleDir)

  it('hands the state over in one script element that no typed value can close', () => {
    const html = renderer.page(state, 'abc123')
    const match = html.match(/<script type="application\/json" id="console-state"[^>]*>([\s\S]*?)<\/script>/)
    expect(match).not.toBeNull()
    expect(match![1]).not.toContain('<')
    expect(JSON.parse(match![1]!)).toEqual(state)
    // The only scripts are the state and the built entry: nothing from the message became one.
    expect(html.match(/<script/gi)).toHaveLength(2)
  })

  it('puts the page into the template with the nonce on every script', () => {
    const html = renderer.page(state, 'abc123')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<title>Anfrage · Konsole</title>')
    expect(html).toContain('<div id="console"><header class="topbar">')
    expect(html).toMatch(/<script nonce="abc123" type="module"[^>]*src="\/assets\/console-[\w-]+\.js"/)
    for (const tag of html.match(/<script[^>]*>/g)!) expect(tag).toContain('nonce="abc123"')
    expect(html).not.toContain('<!--app-')
  })

  it('fills only the template: placeholder text a visitor typed stays text', () => {
    const html = renderer.page(state, 'n')
    expect(html).toContain('&lt;!--app-state--&gt; &lt;!--app-html--&gt;')
    expect(html.match(/id="console-state"/g)).toHaveLength(1)
  })

  it('reports a missing build by its path', () => {
    expect(() => createConsoleRenderer('/nonexistent/console')).toThrow(/\/nonexistent\/console\/index\.html is missing/)
  })
})
