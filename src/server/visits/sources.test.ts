import { expect, test } from 'vitest'
import { refererHost, sourceOf } from './sources.ts'

const OWN = 'example.de'

test.each([
  // Typed in, a bookmark, an app, a mail program: no Referer at all.
  [undefined, 'direct'],
  ['', 'direct'],
  ['https://www.google.com/', 'search:google'],
  ['https://www.google.de/', 'search:google'],
  ['https://www.google.co.uk/', 'search:google'],
  ['https://www.google.com.br/', 'search:google'],
  ['android-app://com.google.android.googlequicksearchbox/', 'search:google'],
  ['https://www.bing.com/', 'search:bing'],
  ['https://duckduckgo.com/', 'search:duckduckgo'],
  ['https://www.ecosia.org/', 'search:ecosia'],
  ['https://search.yahoo.com/', 'search:yahoo'],
  ['https://yandex.ru/', 'search:yandex'],
  ['https://search.brave.com/', 'site:search.brave.com'],
  ['https://sedo.com/search/details/?domain=example.de', 'market:sedo'],
  ['https://sedo.com/', 'market:sedo'],
  ['https://de.sedo.com/', 'market:sedo'],
  ['https://www.afternic.com/domain/example.de', 'market:afternic'],
  ['https://dan.com/buy-domain/example.de', 'market:dan'],
  ['https://www.atom.com/name/example', 'market:atom'],
  ['https://www.squadhelp.com/name/example', 'market:atom'],
  ['https://www.godaddy.com/', 'market:godaddy'],
  ['https://de.godaddy.com/domainsearch/find?domainToCheck=example.de', 'market:godaddy'],
  ['https://www.namecheap.com/', 'market:namecheap'],
  ['https://www.ionos.de/', 'market:ionos'],
  ['https://www.united-domains.de/', 'market:united-domains'],
  ['https://www.facebook.com/', 'social:facebook'],
  ['https://l.facebook.com/', 'social:facebook'],
  ['https://lm.facebook.com/', 'social:facebook'],
  ['https://t.co/', 'social:x'],
  ['https://x.com/', 'social:x'],
  ['https://www.linkedin.com/', 'social:linkedin'],
  ['https://lnkd.in/', 'social:linkedin'],
  ['https://www.reddit.com/', 'social:reddit'],
  ['https://old.reddit.com/r/Domains/', 'social:reddit'],
  ['https://news.ycombinator.com/', 'social:hackernews'],
  ['https://www.namepros.com/threads/example.123/', 'social:namepros'],
  ['https://www.xing.com/', 'social:xing'],
  ['https://blog.example.org/post?id=1', 'site:blog.example.org'],
  ['https://www.heise.de/', 'site:heise.de'],
  ['http://user:pass@Forum.Example.NET:8080/thread', 'site:forum.example.net'],
  // The name's own pages (the Impressum, back to the form).
  ['https://example.de/impressum', 'internal'],
  ['https://www.example.de/', 'internal'],
  ['not a url', 'direct'],
  ['https://<script>/', 'direct'],
])('the Referer %s is counted as %s', (referer, source) => {
  expect(sourceOf(referer, undefined, OWN)).toBe(source)
})

test("a link's own ?ref= or utm_source says more than the Referer, and only safe words are kept", () => {
  expect(sourceOf('https://www.google.com/', 'Newsletter-2026', OWN)).toBe('ref:newsletter-2026')
  expect(sourceOf(undefined, 'sedo_listing', OWN)).toBe('ref:sedo_listing')
  expect(sourceOf(undefined, '<img src=x>', OWN)).toBe('ref:other')
  expect(sourceOf(undefined, 'x'.repeat(41), OWN)).toBe('ref:other')
})

test("the Referer's host is read without its user, port and path", () => {
  expect(refererHost('https://www.google.de/search?q=example')).toBe('www.google.de')
  expect(refererHost('https://a@b.example:443#x')).toBe('b.example')
  expect(refererHost('example.de/path')).toBeNull()
})
