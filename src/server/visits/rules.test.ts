import { expect, test } from 'vitest'
import { filterReason, languageOf } from './rules.ts'

const browser = (userAgent: string) => ({
  'user-agent': userAgent,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
})

/** User-Agents as real browsers send them. */
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
]

/** Crawlers, link previews, monitors and tools as they announce themselves. */
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.85 Safari/537.36',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
  'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  'Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'WhatsApp/2.23.20.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'TelegramBot (like TwitterBot)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'curl/8.5.0',
  'Wget/1.21.4',
  'python-requests/2.32.3',
  'Go-http-client/1.1',
  'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
  'Expanse, a Palo Alto Networks company, searches across the global IPv4 space multiple times per day to identify customers&#39; presences on the Internet.',
  'Mozilla/5.0 (compatible; CensysInspect/1.1; +https://about.censys.io/)',
]

test.each(BROWSERS)('a browser is a visit: %s', (userAgent) => {
  expect(filterReason('GET', browser(userAgent))).toBeNull()
})

test.each(BOTS)('a crawler or tool is filtered as a bot: %s', (userAgent) => {
  expect(filterReason('GET', browser(userAgent))).toBe('bot')
})

test('a HEAD request is no visit', () => {
  expect(filterReason('HEAD', browser(BROWSERS[0]!))).toBe('head')
})

test.each([
  ['sec-purpose', 'prefetch'],
  ['sec-purpose', 'prefetch;prerender'],
  ['purpose', 'prefetch'],
  ['x-moz', 'prefetch'],
  ['x-purpose', 'preview'],
])('a prefetch or prerender (%s: %s) is no visit', (name, value) => {
  expect(filterReason('GET', { ...browser(BROWSERS[0]!), [name]: value })).toBe('prefetch')
})

test.each(['user-agent', 'accept', 'accept-language'])('a request without %s, which every browser sends, is no visit', (name) => {
  const headers: Record<string, string> = browser(BROWSERS[0]!)
  delete headers[name]
  expect(filterReason('GET', headers)).toBe('headers')
  expect(filterReason('GET', { ...headers, [name]: '' })).toBe('headers')
})

test("the language is the primary tag of the browser's first choice", () => {
  expect(languageOf('de-DE,de;q=0.9,en;q=0.8')).toBe('de')
  expect(languageOf('en-US,en;q=0.9')).toBe('en')
  expect(languageOf('fr')).toBe('fr')
  expect(languageOf('zh_CN')).toBe('zh')
  expect(languageOf('*')).toBe('other')
  expect(languageOf('<script>')).toBe('other')
  expect(languageOf('deutsch')).toBe('other')
})
