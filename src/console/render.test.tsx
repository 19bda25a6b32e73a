import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ConsoleState, InquiryDetail, OverviewDomain } from '../shared/console-api.ts'
import type { ImportReport } from '../shared/import-api.ts'
import { detail, HOUR, NOW, overview, render, row, STATES, text, visitorStatsFixture } from './render.fixtures.ts'
import { formatAge } from './format.ts'
import { ImportReportView } from './pages/ImportReport.tsx'
import { sortDomains } from './pages/Overview.tsx'
import { sortNames } from './pages/VisitorStats.tsx'

describe('console pages', () => {
  it('"Kontoauszug importieren" asks for a CAMT.053 file of at most 5 MB, under Verkäufe, which links to it', () => {
    const html = render(STATES['bank-statement'])
    expect(text(html).replace(/\s+/g, ' ')).toContain('Datei (CAMT.053, höchstens 5 MB)')
    expect(html).toContain('<input id="statement-file" type="file" accept=".xml,application/xml,text/xml" required="" name="file"/>')
    expect(html).toMatch(/<a href="\/verkaeufe" aria-current="page">Verkäufe<\/a>/)
    expect(render(STATES.sales)).toContain('<a href="/kontoauszug">Kontoauszug importieren</a>')
  })

  it('the setup page shows only how to set a password', () => {
    const html = text(render(STATES.setup))
    expect(html).toContain('npx domain-lander set-password')
    expect(html).toContain('--stdin')
    expect(html).not.toContain('Abmelden')
    expect(html).not.toContain('Passwort\n')
  })

  it('the sign-in page has a labelled password field and the button Anmelden', () => {
    const html = render({ page: 'signin', error: 'Zu viele Versuche.' })
    expect(html).toContain('<label for="password">Passwort</label>')
    const input = html.match(/<input id="password"[^>]*>/)?.[0] ?? ''
    for (const attribute of ['type="password"', 'name="password"', 'autoComplete="current-password"']) expect(input).toContain(attribute)
    expect(html).toMatch(/<form[^>]*action="\/api\/session"/)
    expect(html).toMatch(/<button type="submit"[^>]*>Anmelden<\/button>/)
    expect(html).toContain('Zu viele Versuche.')
  })

  it('the Anmeldung page lists passkeys by their names as text, offers "Passkey hinzufügen" and the second factor', () => {
    const html = render(STATES.security)
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain('<img')
    const shown = text(html)
    for (const label of ['Passkeys', 'Passkey hinzufügen', 'Zweiten Faktor einrichten', 'Entfernen']) expect(shown).toContain(label)
  })

  it('the Anmeldung page says why passkeys cannot work at this address, and offers no button then', () => {
    const problem = 'Passkeys gehen nur über HTTPS oder auf localhost, nicht unter http://console.example:8081.'
    const state: ConsoleState = { page: 'security', data: { passkeys: [], passkeyProblem: problem, secondFactor: { on: true, recoveryCodesLeft: 9 } } }
    const shown = text(render(state))
    expect(shown).toContain(problem)
    expect(shown).not.toContain('Passkey hinzufügen')
    expect(shown).toMatch(/Übrige Wiederherstellungscodes:\s*9/)
  })

  it('the Sitzungen page shows each session with browser, address in part, Abmelden and Überall abmelden', () => {
    const shown = text(render(STATES.sessions))
    for (const label of ['Chrome auf Linux', '203.0.x.x', '(diese Sitzung)', 'Passkey', 'Abmelden', 'Überall abmelden']) expect(shown).toContain(label)
  })

  it('the Protokoll page shows each row with who, action, subject and outcome, keeps its filters and links to older rows', () => {
    const html = render(STATES.audit)
    const shown = text(html).replace(/\s+/g, ' ')
    expect(shown).toContain('Sitzung 1a2b3c4d Antwort Anfrage 7 <script>alert(1)</script>.example erledigt')
    expect(shown).toContain('unbekannt Anmeldung – abgewiesen password · 203.0.x.x')
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toMatch(/<option value="reply" selected="">Antwort<\/option>/)
    expect(html).toContain(`href="/protokoll?action=reply&amp;cursor=${NOW - 2 * HOUR}.1"`)
    expect(html).toMatch(/<a href="\/protokoll" aria-current="page">Protokoll<\/a>/)
  })

  it('the sign-in page offers a passkey only when one exists', () => {
    expect(text(render({ page: 'signin', passkey: true }))).toContain('Mit Passkey anmelden')
    expect(text(render({ page: 'signin' }))).not.toContain('Mit Passkey anmelden')
  })

  it.each(['inbox', 'inquiry', 'outbox', 'overview'] as const)('the %s page has the navigation and Abmelden', (page) => {
    const html = render(STATES[page])
    for (const label of ['Posteingang', 'Postausgang', 'Übersicht']) expect(html).toContain(`>${label}</a>`)
    expect(html).toMatch(/<button[^>]*>Abmelden<\/button>/)
  })

  it('the inbox shows each row with age, offer, status and mail state, filters and export links', () => {
    const html = render(STATES.inbox)
    const shown = text(html)
    for (const label of ['vor 3 Std.', '1.500 €', 'Neu', 'zugestellt', 'nicht gesendet', 'Weitere laden', 'Export CSV', 'Export JSON']) {
      expect(shown).toContain(label)
    }
    expect(html).toContain('placeholder="Suchen"')
    expect(html).toContain('href="/anfragen/1"')
    expect(html).toContain('href="/api/export?format=csv"')
  })

  it('the inbox keeps its filters in the form and the export links', () => {
    const html = render({
      page: 'inbox',
      query: { status: 'spam', q: 'a&b', domain: 'x.example' },
      data: { items: [], next: null, domains: [{ ascii: 'x.example', display: 'x.example' }] },
    })
    expect(html).toContain('href="/api/export?format=json&amp;domain=x.example&amp;status=spam&amp;q=a%26b"')
    expect(html).toMatch(/<option value="spam" selected="">Spam<\/option>/)
    expect(html).not.toContain('Weitere laden')
  })

  it('an inquiry shows the offer against price and minimum, its delivery, the conversation and the reply form', () => {
    const shown = text(render({ page: 'inquiry', data: detail({ belowMinimum: true }) }))
    expect(shown).toContain('Angebot 1.500 € · Preis 5.000 € · Mindestangebot 1.000 €')
    expect(shown).toContain('unter dem Mindestangebot')
    expect(shown).toContain('fehlgeschlagen')
    expect(shown).toContain('550 mailbox unavailable')
    expect(shown).toContain('<abc@lander>')
    expect(shown).toContain('Danke für die Anfrage.')
    for (const label of ['Antworten', 'Antwort', 'Senden', 'Archivieren', 'Als Spam markieren', 'Löschen']) expect(shown).toContain(label)
  })

  it('an inquiry says which language the buyer wrote in, so the owner answers in it', () => {
    expect(text(render({ page: 'inquiry', data: detail() }))).toMatch(/Sprache\s*Deutsch/)
    expect(text(render({ page: 'inquiry', data: detail({ language: 'en' }) }))).toMatch(/Sprache\s*Englisch/)
  })

  it('a negotiated inquiry shows its counter-offer with the expiry, the steps labelled by kind, and the three buttons', () => {
    const counter = { amount: 4900, formatted: '4.900 €', expiresAt: Date.UTC(2025, 4, 27, 10), expired: false }
    const replies: InquiryDetail['replies'] = [
      { id: 1, kind: 'reply', amount: null, body: 'Danke.', createdAt: NOW - 3 * HOUR, mail: null },
      { id: 2, kind: 'counter', amount: '4.900 €', body: 'Mein Preis', createdAt: NOW - 2 * HOUR, mail: null },
      { id: 3, kind: 'accept', amount: '4.900 €', body: 'Einverstanden', createdAt: NOW - HOUR, mail: null },
      { id: 4, kind: 'decline', amount: null, body: 'Leider nein', createdAt: NOW, mail: null },
    ]
    const words = (html: string) => text(html).replace(/\s+/g, ' ')
    const shown = words(render({ page: 'inquiry', data: detail({ status: 'countered', counter, replies }) }))
    expect(shown).toContain('4.900 € · gültig bis 27.05.2025, 12:00')
    expect(shown).toMatch(/Antwort · .* Danke\. Gegenangebot 4\.900 € · .* Mein Preis Annahme 4\.900 € · .* Einverstanden Ablehnung · /)
    for (const label of ['Verhandlung', 'Gegenangebot', 'Annehmen', 'Ablehnen']) expect(shown).toContain(label)
    const expired = words(render({ page: 'inquiry', data: detail({ status: 'expired', counter: { ...counter, expired: true } }) }))
    expect(expired).toContain('4.900 € · abgelaufen am 27.05.2025, 12:00')
    expect(expired).toContain('Gegenangebot abgelaufen')
  })

  it('an archived spam inquiry offers Wiederherstellen and Kein Spam', () => {
    const shown = text(render({ page: 'inquiry', data: detail({ status: 'archived' }) }))
    expect(shown).toContain('Wiederherstellen')
    expect(shown).not.toContain('Archivieren')
    expect(text(render({ page: 'inquiry', data: detail({ status: 'spam', spamReason: 'too-fast' }) }))).toMatch(
      /Kein Spam[\s\S]*too-fast|too-fast[\s\S]*Kein Spam/,
    )
  })

  it('the outbox lists mail and notifications (by host) with the last error and a resend button', () => {
    const html = render(STATES.outbox)
    expect(text(html)).toContain('Antwort')
    expect(text(html)).toContain('timeout')
    expect(text(html)).toContain('Webhook an ntfy.example.org')
    expect(text(html)).toContain('HTTP 503')
    expect(html).toMatch(/<button[^>]*>Erneut senden<\/button>/)
    expect(html).toContain('href="/anfragen/7"')
  })

  it('the outbox lists a DNS update by its zone and server, with no inquiry to link to', () => {
    const html = render(STATES.outbox)
    expect(text(html)).toContain('DNS-Update an 192.0.2.53:53')
    expect(text(html)).toContain('the DNS server cannot be reached (ECONNREFUSED)')
    expect(html.match(/href="\/anfragen\/7"/g)).toHaveLength(2)
    expect(html.match(/<button[^>]*>Erneut senden<\/button>/g)).toHaveLength(3)
  })

  it('the overview sorts by inquiries, then views, and draws a labelled chart per domain', () => {
    const html = render(STATES.overview)
    const order = ['c.example', 'b.example', 'a.example'].map((domain) => html.indexOf(`>${domain}</a>`))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(html.match(/<svg[^>]*role="img"[^>]*aria-label="[^"]+"/g)).toHaveLength(3)
    for (const days of [7, 30, 90]) expect(html).toContain(`href="/uebersicht?days=${days}"`)
    expect(sortDomains(overview.domains, 'highestOffer', true).map((d) => d.domain)).toEqual(['b.example', 'c.example', 'a.example'])
  })

  it("the overview shows the portfolio's figures, each hint with its numbers, and the CSV downloads of the range", () => {
    const html = render(STATES.overview)
    const shown = text(html).replace(/\s+/g, ' ')
    expect(shown).toContain('Besucher 180')
    expect(shown).toContain('Bots gefiltert 900')
    expect(shown).toContain('Umsatz 2.500,00 €')
    expect(shown).toContain('a.example: 120 Besucher (150 Besuche, 0 zum Formular) und keine Anfrage.')
    expect(shown).toContain('b.example: höchstes von 3 Angeboten 2.400 €, 96 % des Preises 2.500 €.')
    expect(shown).toContain('c.example: kein Besucher in 90 Tagen.')
    expect(shown).toContain('Marktplatz, Registrar: sedo')
    expect(html).toContain('href="/api/overview.csv?days=30"')
    expect(html).toContain('href="/api/overview.csv?days=30&amp;sep=%3B"')
    // The charts' boxes, labelled with their figures, drawn only after hydration.
    expect(html).toMatch(
      /<div class="stats-chart stats-chart-funnel" role="img" aria-label="Vom Besuch zum Abschluss: Besuche 240, Zum Formular 12, Anfragen 5, Angebote 3, Abschlüsse 1"><\/div>/,
    )
    expect(html).not.toContain('recharts')
    expect(html).toContain('href="/uebersicht?days=365"')
  })

  it('the names sort by any column, those without a share of the price last', () => {
    const { names } = visitorStatsFixture()
    expect(sortNames(names, 'visitors', true).map((n) => n.domain)).toEqual(['a.example', 'b.example'])
    expect(sortNames(names, 'inquiries', true).map((n) => n.domain)).toEqual(['b.example', 'a.example'])
    expect(sortNames(names, 'highestShare', false).map((n) => n.domain)).toEqual(['b.example', 'a.example'])
    expect(sortNames(names, 'domain', true).map((n) => n.domain)).toEqual(['b.example', 'a.example'])
  })

  it('the overview sorts offers by their amounts within each currency, never one currency against another, those without last', () => {
    const offer = (domain: string, amount: number, currency: string, shown: string): OverviewDomain => ({
      ...overview.domains[0]!,
      domain,
      domainAscii: domain,
      highestOffer: shown,
      medianOffer: shown,
      highestAmount: { amount, currency },
      medianAmount: { amount, currency },
    })
    const domains = [
      offer('yen.example', 150_000, 'JPY', '150.000 ¥'),
      offer('dollar.example', 1000, 'USD', '1.000 $'),
      offer('euro-klein.example', 900, 'EUR', '900 €'),
      overview.domains[0]!,
      offer('euro-gross.example', 1500, 'EUR', '1.500 €'),
      offer('franken.example', 2000, 'CHF', '2.000 CHF'),
    ]
    for (const key of ['highestOffer', 'medianOffer'] as const) {
      expect(sortDomains(domains, key, true).map((d) => d.domain)).toEqual([
        'franken.example',
        'euro-gross.example',
        'euro-klein.example',
        'yen.example',
        'dollar.example',
        'a.example',
      ])
      expect(sortDomains(domains, key, false).map((d) => d.domain)).toEqual([
        'franken.example',
        'euro-klein.example',
        'euro-gross.example',
        'yen.example',
        'dollar.example',
        'a.example',
      ])
    }
  })

  it('the not-found page links to the inbox', () => {
    const html = render(STATES['not-found'])
    expect(html).toContain('Seite nicht gefunden')
    expect(html).toContain('<a href="/">Zum Posteingang</a>')
  })

  it('the import page has a labelled file field, the choice to remove unlisted names and Vorschau; without DOMAINS_FILE it says why', () => {
    const html = render(STATES.import)
    expect(html.replace(/<!-- -->/g, '')).toContain(
      '<label for="import-file">Datei (CSV oder JSON, höchstens 10 MB)</label><input id="import-file" type="file"',
    )
    expect(html).toContain('<input id="import-prune" type="checkbox" name="prune"/><label for="import-prune">')
    expect(html).toMatch(/<button type="submit"[^>]*>Vorschau<\/button>/)
    expect(text(html)).toContain('/etc/domain-lander/domains.yaml')
    const without = text(render({ page: 'import', data: { domainsFile: null, maxBytes: 1024 } }))
    expect(without).toContain('keine Domains-Datei (DOMAINS_FILE)')
    expect(without).not.toContain('Vorschau')
  })

  it('no page uses a style attribute (the CSP blocks them)', () => {
    for (const state of Object.values(STATES)) expect(render(state)).not.toMatch(/\sstyle=/)
  })
})

describe('what visitors typed', () => {
  const LONG_WORD = 'x'.repeat(5000)
  const PAYLOADS = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '&amp;', '\u202Eevil.exe', '\u001b[31mrot', LONG_WORD]
  const hostile = PAYLOADS.join(' ')
  const pages: ConsoleState[] = [
    { page: 'inbox', query: { q: hostile }, data: { items: [row(1, { name: hostile, email: hostile, firstLine: hostile })], next: null, domains: [] } },
    { page: 'inquiry', data: detail({ name: hostile, email: hostile, message: `${hostile}\n${hostile}`, spamReason: hostile }) },
  ]

  it.each(pages.map((state) => [state.page, state] as const))('is shown as text on the %s page', (_page, state) => {
    const html = render(state)
    // No element, attribute or link made from it.
    expect(html).not.toMatch(/<(script|img)\b/i)
    // Inside a quoted attribute value (the search field holds the query) it is a value, never an attribute.
    for (const tag of html.match(/<[^>]*>/g)!) expect(tag.replace(/="[^"]*"/g, '=""')).not.toMatch(/onerror/i)
    expect(html).not.toMatch(/(href|src|action)="\s*javascript:/i)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('&amp;amp;')
    expect(html).toContain('\u202Eevil.exe')
    expect(html).toContain('\u001b[31mrot')
    expect(html).toContain(LONG_WORD)
    // Every payload reaches the owner's screen unchanged.
    for (const payload of PAYLOADS) expect(text(html)).toContain(payload)
  })

  it('is isolated from the text around it (a right-to-left override cannot turn the page around)', () => {
    const html = render(pages[1]!)
    expect(html).toMatch(/<bdi>[^<]*\u202Eevil\.exe/)
  })
})

describe('an import report', () => {
  const terms = (price: number | null) => ({ price, minOffer: null, currency: 'EUR' })
  const report: ImportReport = {
    format: 'csv',
    separator: ';',
    columns: [{ field: 'name', header: '<b>Domain</b>' }],
    ignored: [],
    rows: 1200,
    domainsFile: '/etc/domains.yaml',
    fingerprint: '',
    problems: [
      { kind: 'name', line: 3, value: '<img src=x onerror=alert(1)>.de' },
      { kind: 'name', line: 4, value: '\u202Eexe.de' },
      { kind: 'amount', line: 5, field: 'price', value: '4,50', reason: 'cents', currency: '' },
      { kind: 'duplicate', line: 9, first: 2, name: 'münchen.de', conflict: false },
    ],
    added: [{ name: 'neu.de', terms: terms(4900) }],
    changed: [{ name: 'beispiel.de', before: terms(4000), after: terms(4900) }],
    removed: [],
    counts: { errors: 3, warnings: 1, added: 1001, changed: 1, removed: 0, unchanged: 5 },
    written: false,
  }

  it('shows every problem with its line, the values as isolated text, and the changes with their counts', () => {
    const html = renderToString(<ImportReportView report={report} />)
    expect(html).not.toMatch(/<(img|b)\b/i)
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.de')
    expect(html).toMatch(/<bdi>\u202Eexe\.de<\/bdi>/)
    // The words as read: React's text separators and the inline elements go, block elements leave a space.
    const shown = text(html.replace(/<!-- -->|<\/?(?:bdi|span)>/g, '')).replace(/\s+/g, ' ')
    for (const phrase of [
      'Gelesen: 1.200 Zeilen (Spalten: „<b>Domain</b>“ → Domain).',
      '1.001 neu, 1 geändert, 0 entfernt, 5 unverändert',
      'Fehler (3)',
      'Zeile 3: „<img src=x onerror=alert(1)>.de“ ist kein Domainname.',
      'Zeile 5: Preis „4,50“ hat Cent',
      'Hinweise (1)',
      'Zeile 9: münchen.de steht schon in Zeile 2, mit denselben Werten',
      'Neu (1.001)',
      '… und 1.000 weitere',
      'beispiel.de 4.000 → 4.900 – EUR',
    ]) {
      expect(shown).toContain(phrase)
    }
  })
})

describe('ages', () => {
  it('are relative and German', () => {
    expect(formatAge(NOW - 20_000, NOW)).toBe('gerade eben')
    expect(formatAge(NOW - 5 * 60_000, NOW)).toBe('vor 5 Min.')
    expect(formatAge(NOW - 3 * HOUR, NOW)).toBe('vor 3 Std.')
    expect(formatAge(NOW - 24 * HOUR, NOW)).toBe('vor 1 Tag')
    expect(formatAge(NOW - 48 * HOUR, NOW)).toBe('vor 2 Tagen')
    expect(formatAge(Date.UTC(2025, 0, 2, 12), NOW)).toBe('02.01.2025')
  })
})

describe('Verkäufe (decision 037)', () => {
  const sales = STATES.sales as Extract<ConsoleState, { page: 'sales' }>
  const [waiting] = sales.data.deals
  it('offers "Frist ändern" while a deal waits for payment, and shows the choice about the other inquirers once transferred', () => {
    expect(render(sales)).toMatch(/<button[^>]*>Frist ändern<\/button>/)
    const transferred = { ...waiting!, status: 'transferred' as const, statusLabel: 'Übertragen', notifyOthers: true }
    const shown = text(render({ page: 'sales', data: { deals: [transferred] } }))
    expect(shown).toMatch(/Andere Interessenten\s*werden beim Abschluss informiert/)
    expect(text(render({ page: 'sales', data: { deals: [{ ...transferred, notifyOthers: false }] } }))).toMatch(
      /Andere Interessenten\s*werden nicht informiert/,
    )
    expect(render({ page: 'sales', data: { deals: [transferred] } })).not.toMatch(/>Frist ändern</)
  })
})
