import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('configuration', () => {
  test('the embedded defaults need no variable at all', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      adminPort: 3001,
      adminHost: '127.0.0.1',
      dataDir: path.resolve('data'),
      smtpUrl: undefined,
      mailTo: 'owner@localhost',
      mailFrom: 'owner@localhost',
      contactSecret: undefined,
      contactRateLimit: 10,
      minFillSeconds: 3,
      trustProxy: false,
      adminTrustProxy: false,
      rateLimitIpv6Prefix: 64,
      logLevel: 'info',
      workers: 1,
      domainsFile: undefined,
      domainsFileMemoryMiB: 384,
      databaseUrl: undefined,
      mailLeaseMs: 120_000,
      drainMs: 1000,
      allowAnyTls: false,
      readyzDetails: false,
      tlsWildcardDailyLimit: 20,
      searchRateLimit: 30,
      imageRateLimit: 10,
      localPreview: true,
      counterOfferDays: 7,
      deal: { key: null, paymentDays: 7, transferDays: 5 },
      retentionDays: undefined,
      invoiceRetentionYears: 8,
      digest: 'off',
      dnsUpdate: null,
      domainChecks: { daily: true, serverAddresses: [], resolver: null },
      legal: { imprintUrl: undefined, privacyUrl: undefined, imprintFile: undefined, privacyFile: undefined },
      notify: { urls: [], secret: undefined, personal: false },
      invoice: null,
      adminUrl: undefined,
    })
  })

  test('SEARCH_RATE_LIMIT and IMAGE_RATE_LIMIT are whole numbers per minute, 0 for no limit', () => {
    expect(loadConfig({ SEARCH_RATE_LIMIT: '0', IMAGE_RATE_LIMIT: '120' })).toMatchObject({ searchRateLimit: 0, imageRateLimit: 120 })
    for (const value of ['-1', '2.5', 'viele']) {
      expect(() => loadConfig({ SEARCH_RATE_LIMIT: value }), value).toThrow('SEARCH_RATE_LIMIT: must be a whole number per client and minute')
      expect(() => loadConfig({ IMAGE_RATE_LIMIT: value }), value).toThrow('IMAGE_RATE_LIMIT: must be a whole number per client and minute')
    }
  })

  test('DEAL_KEY is 32 bytes as hex or base64; the deal deadlines are whole days from 1 to 365', () => {
    const hex = 'ab'.repeat(32)
    expect(loadConfig({ DEAL_KEY: hex }).deal.key).toEqual(Buffer.from(hex, 'hex'))
    expect(loadConfig({ DEAL_KEY: Buffer.alloc(32, 7).toString('base64') }).deal.key).toEqual(Buffer.alloc(32, 7))
    for (const value of ['ab'.repeat(16), 'geheim', Buffer.alloc(31).toString('base64')]) {
      expect(() => loadConfig({ DEAL_KEY: value }), value).toThrow('DEAL_KEY: must be 32 random bytes as 64 hex digits or base64')
    }
    expect(loadConfig({ DEAL_PAYMENT_DAYS: '14', DEAL_TRANSFER_DAYS: '3' }).deal).toMatchObject({ paymentDays: 14, transferDays: 3 })
    for (const value of ['0', '366', '1.5']) expect(() => loadConfig({ DEAL_PAYMENT_DAYS: value })).toThrow('DEAL_PAYMENT_DAYS')
  })

  test('DOMAINS_FILE_MEMORY_MIB is a whole number of MiB from 16 to 4096', () => {
    expect(loadConfig({ DOMAINS_FILE_MEMORY_MIB: '64' }).domainsFileMemoryMiB).toBe(64)
    for (const value of ['8', '5000', '64.5', 'viel']) {
      expect(() => loadConfig({ DOMAINS_FILE_MEMORY_MIB: value }), value).toThrow('DOMAINS_FILE_MEMORY_MIB: must be a whole number of MiB from 16 to 4096')
    }
  })

  test('COUNTER_OFFER_DAYS is a whole number of days from 1 to 365', () => {
    expect(loadConfig({ COUNTER_OFFER_DAYS: '14' }).counterOfferDays).toBe(14)
    for (const value of ['0', '366', '2.5', 'eine Woche']) {
      expect(() => loadConfig({ COUNTER_OFFER_DAYS: value }), value).toThrow('COUNTER_OFFER_DAYS: must be a whole number of days from 1 to 365')
    }
  })

  test('notification addresses are a list; NOTIFY_SECRET signs them and is required with them', () => {
    const secret = 's'.repeat(32)
    expect(
      loadConfig({
        NOTIFY_URLS: 'https://a.example.org/x, ntfy+https://ntfy.sh/t\nhttp://127.0.0.1:9/y',
        NOTIFY_SECRET: secret,
        NOTIFY_PERSONAL: 'true',
        ADMIN_URL: 'https://konsole.example.org/',
      }),
    ).toMatchObject({
      notify: { urls: ['https://a.example.org/x', 'ntfy+https://ntfy.sh/t', 'http://127.0.0.1:9/y'], secret, personal: true },
      adminUrl: 'https://konsole.example.org',
    })
    expect(() => loadConfig({ NOTIFY_URLS: 'https://a.example.org/x' })).toThrow(/NOTIFY_SECRET: is required when NOTIFY_URLS is set/)
    expect(() => loadConfig({ NOTIFY_URLS: 'https://a.example.org/x', NOTIFY_SECRET: 'kurz' })).toThrow(/NOTIFY_SECRET: must be at least 32 characters/)
    expect(() => loadConfig({ NOTIFY_URLS: 'https://a.example.org/x http://b.example.org/bot1:GEHEIM', NOTIFY_SECRET: secret })).toThrow(
      /NOTIFY_URLS: entry 2, "http:\/\/b\.example\.org\/…" must be an https:\/\/ URL/,
    )
  })

  test('DNS updates need the server, the key name and its secret together; zones are optional', () => {
    const secret = Buffer.alloc(32, 3).toString('base64')
    expect(loadConfig({}).dnsUpdate).toBeNull()
    expect(loadConfig({ DNS_UPDATE_SERVER: 'ns1.example.net', DNS_UPDATE_KEY_NAME: 'Lander-Key.', DNS_UPDATE_KEY_SECRET: secret }).dnsUpdate).toEqual({
      host: 'ns1.example.net',
      port: 53,
      zones: null,
      key: { name: 'lander-key.', secret: Buffer.alloc(32, 3) },
    })
    expect(
      loadConfig({ DNS_UPDATE_SERVER: '[::1]:5353', DNS_UPDATE_ZONES: 'Example.com, example.de.', DNS_UPDATE_KEY_NAME: 'k', DNS_UPDATE_KEY_SECRET: secret })
        .dnsUpdate,
    ).toMatchObject({
      host: '::1',
      port: 5353,
      zones: ['example.com', 'example.de'],
    })
    expect(() => loadConfig({ DNS_UPDATE_SERVER: '192.0.2.53' })).toThrow(
      /DNS_UPDATE_KEY_NAME: is required for DNS updates[\s\S]*DNS_UPDATE_KEY_SECRET: is required/,
    )
    expect(() => loadConfig({ DNS_UPDATE_ZONES: 'example.de' })).toThrow(/DNS_UPDATE_SERVER: is required for DNS updates/)
    expect(() => loadConfig({ DNS_UPDATE_SERVER: '192.0.2.53:99999', DNS_UPDATE_KEY_NAME: 'k', DNS_UPDATE_KEY_SECRET: secret })).toThrow(
      /DNS_UPDATE_SERVER: must be the DNS server/,
    )
    expect(() => loadConfig({ DNS_UPDATE_SERVER: '192.0.2.53', DNS_UPDATE_KEY_NAME: 'k', DNS_UPDATE_KEY_SECRET: 'c2hvcnQ=' })).toThrow(
      /DNS_UPDATE_KEY_SECRET: must be the key's secret in base64, at least 16 bytes/,
    )
    expect(() =>
      loadConfig({ DNS_UPDATE_SERVER: '192.0.2.53', DNS_UPDATE_KEY_NAME: 'k', DNS_UPDATE_KEY_SECRET: secret, DNS_UPDATE_ZONES: 'example.de,*.x' }),
    ).toThrow(/DNS_UPDATE_ZONES: must be a comma-separated list of zones/)
    // The secret is never part of an error message.
    expect(() => loadConfig({ DNS_UPDATE_SERVER: 'bad host', DNS_UPDATE_KEY_NAME: 'k', DNS_UPDATE_KEY_SECRET: secret })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(secret) }),
    )
  })

  test('values are read and converted, and MAIL_FROM defaults to MAIL_TO', () => {
    const config = loadConfig({
      PORT: '8080',
      SMTP_URL: 'smtps://user:pass@mail.example.de:465',
      MAIL_TO: 'owner@example.de',
      CONTACT_RATE_LIMIT: '0',
      MIN_FILL_SECONDS: '0',
      TRUST_PROXY: 'true',
    })
    expect(config).toMatchObject({ port: 8080, mailFrom: 'owner@example.de', contactRateLimit: 0, minFillSeconds: 0, trustProxy: 1 })
  })

  test('MAIL_TO and MAIL_FROM take one address, MAIL_FROM also with a name', () => {
    expect(loadConfig({ MAIL_TO: 'owner@localhost', MAIL_FROM: 'Domain-Verkauf <verkauf@example.de>' })).toMatchObject({
      mailTo: 'owner@localhost',
      mailFrom: 'Domain-Verkauf <verkauf@example.de>',
    })
  })

  test.each([
    ['MAIL_TO', { MAIL_TO: 'owner@example.org\u2028Bcc: x@evil.example' }],
    ['MAIL_TO', { MAIL_TO: 'owner@example.org\u2029x@evil.example' }],
    ['MAIL_TO', { MAIL_TO: 'owner@example.org\r\nBcc: x@evil.example' }],
    ['MAIL_TO', { MAIL_TO: 'owner@example.org, x@evil.example' }],
    ['MAIL_TO', { MAIL_TO: 'owner@example.org;x@evil.example' }],
    ['MAIL_TO', { MAIL_TO: 'team: owner@example.org, x@evil.example;' }],
    ['MAIL_FROM', { MAIL_FROM: 'Verkauf <verkauf@example.de>, x@evil.example' }],
    ['MAIL_FROM', { MAIL_FROM: 'Verkauf, x@evil.example <verkauf@example.de>' }],
    ['MAIL_FROM', { MAIL_FROM: 'Verkauf\u2028Bcc: x@evil.example <verkauf@example.de>' }],
  ])('%s with a list or a line separator is refused (%j)', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}: must be one e-mail address`))
  })

  test('WORKERS=auto means one process per core', () => {
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(os.availableParallelism())
  })

  test('DATABASE_URL switches to PostgreSQL; MAIL_LEASE_SECONDS sets how long a mail being sent is reserved', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://lander:pw@db.internal:5432/lander', MAIL_LEASE_SECONDS: '30' })).toMatchObject({
      databaseUrl: 'postgres://lander:pw@db.internal:5432/lander',
      mailLeaseMs: 30_000,
    })
    expect(loadConfig({ DATABASE_URL: 'postgresql://db.internal/lander' }).databaseUrl).toBe('postgresql://db.internal/lander')
  })

  test('SHUTDOWN_DRAIN_SECONDS sets how long a stopping server keeps answering before it stops listening: 0 to 9 s', () => {
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '0' }).drainMs).toBe(0)
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '2.5' }).drainMs).toBe(2500)
  })

  test('TRUST_PROXY is off, a number of proxies (true is one), or a list of proxy addresses and ranges', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ TRUST_PROXY }).trustProxy
    expect(trust('false')).toBe(false)
    expect(trust('0')).toBe(false)
    expect(trust('true')).toBe(1)
    expect(trust('1')).toBe(1)
    expect(trust('2')).toBe(2)
    expect(trust('127.0.0.1, 10.0.0.0/8,fd00::/8 ,::1,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1', 'loopback'])
  })

  test("the console believes no X-Forwarded-For unless ADMIN_TRUST_PROXY says so, whatever the public port's TRUST_PROXY is", () => {
    expect(loadConfig({ TRUST_PROXY: 'true' })).toMatchObject({ trustProxy: 1, adminTrustProxy: false })
    expect(loadConfig({ TRUST_PROXY: 'true', ADMIN_TRUST_PROXY: '127.0.0.1' })).toMatchObject({ trustProxy: 1, adminTrustProxy: ['127.0.0.1'] })
    expect(loadConfig({ ADMIN_TRUST_PROXY: 'true' })).toMatchObject({ trustProxy: false, adminTrustProxy: 1 })
  })

  test('RATE_LIMIT_IPV6_PREFIX sets how many bits of an IPv6 address make one client', () => {
    expect(loadConfig({ RATE_LIMIT_IPV6_PREFIX: '56' }).rateLimitIpv6Prefix).toBe(56)
  })

  test('the console listens on 127.0.0.1:3001 unless told otherwise; ADMIN_PORT=off switches it off', () => {
    expect(loadConfig({})).toMatchObject({ adminPort: 3001, adminHost: '127.0.0.1' })
    expect(loadConfig({ ADMIN_PORT: 'off' }).adminPort).toBeNull()
    expect(loadConfig({ ADMIN_PORT: '0', ADMIN_HOST: '::1' })).toMatchObject({ adminPort: 0, adminHost: '::1' })
  })

  test('an empty variable counts as unset', () => {
    expect(loadConfig({ PORT: '', SMTP_URL: '' })).toMatchObject({ port: 3000, smtpUrl: undefined })
  })

  test.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['ADMIN_PORT', { ADMIN_PORT: 'on' }],
    ['ADMIN_PORT', { ADMIN_PORT: '70000' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.de', MAIL_TO: 'a@example.de' }],
    ['CONTACT_RATE_LIMIT', { CONTACT_RATE_LIMIT: '-1' }],
    ['MIN_FILL_SECONDS', { MIN_FILL_SECONDS: 'soon' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '127.0.0.1,proxy.internal' }],
    ['TRUST_PROXY', { TRUST_PROXY: '99' }],
    ['ADMIN_TRUST_PROXY', { ADMIN_TRUST_PROXY: 'maybe' }],
    ['RATE_LIMIT_IPV6_PREFIX', { RATE_LIMIT_IPV6_PREFIX: '16' }],
    ['RATE_LIMIT_IPV6_PREFIX', { RATE_LIMIT_IPV6_PREFIX: '129' }],
    ['RATE_LIMIT_IPV6_PREFIX', { RATE_LIMIT_IPV6_PREFIX: 'wide' }],
    ['CONTACT_SECRET', { CONTACT_SECRET: 'short' }],
    ['WORKERS', { WORKERS: 'zwei' }],
    ['WORKERS', { WORKERS: '0' }],
    ['MAIL_TO', { SMTP_URL: 'smtp://mail.example.de:587' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db.example.de/lander' }],
    ['MAIL_LEASE_SECONDS', { MAIL_LEASE_SECONDS: '0' }],
    ['SHUTDOWN_DRAIN_SECONDS', { SHUTDOWN_DRAIN_SECONDS: '10' }],
    ['SHUTDOWN_DRAIN_SECONDS', { SHUTDOWN_DRAIN_SECONDS: 'kurz' }],
    ['TLS_WILDCARD_DAILY_LIMIT', { TLS_WILDCARD_DAILY_LIMIT: 'viele' }],
    ['TLS_WILDCARD_DAILY_LIMIT', { TLS_WILDCARD_DAILY_LIMIT: '-1' }],
    ['LOCAL_PREVIEW', { LOCAL_PREVIEW: 'vielleicht' }],
  ])('a wrong %s stops start-up with a message naming it', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}: `))
  })
})

test('RETENTION_DAYS takes a positive whole number of days or off, DIGEST weekly or off; anything else is named', () => {
  expect(loadConfig({ RETENTION_DAYS: '365', DIGEST: 'weekly' })).toMatchObject({ retentionDays: 365, digest: 'weekly' })
  expect(loadConfig({ RETENTION_DAYS: 'off' }).retentionDays).toBeUndefined()
  for (const wrong of ['0', '-3', '1.5', 'ein Jahr']) {
    expect(() => loadConfig({ RETENTION_DAYS: wrong })).toThrow('RETENTION_DAYS: must be a whole number of days from 1 to 36500 (e.g. 365), or off')
  }
  expect(() => loadConfig({ DIGEST: 'daily' })).toThrow('DIGEST: must be weekly (a summary mail every Monday 08:00 Europe/Berlin) or off')
})

test('INVOICE_RETENTION_YEARS is 8 (the law since 2025), may be longer or off, never shorter', () => {
  expect(loadConfig({}).invoiceRetentionYears).toBe(8)
  expect(loadConfig({ INVOICE_RETENTION_YEARS: '10' }).invoiceRetentionYears).toBe(10)
  expect(loadConfig({ INVOICE_RETENTION_YEARS: 'off' }).invoiceRetentionYears).toBeUndefined()
  for (const wrong of ['7', '0', '8.5', 'acht']) {
    expect(() => loadConfig({ INVOICE_RETENTION_YEARS: wrong })).toThrow(
      'INVOICE_RETENTION_YEARS: must be a whole number of years from 8 to 100 (the law asks for 8 since 2025: §147 Abs. 3 AO, §14b Abs. 1 UStG), or off',
    )
  }
})

test('the seller on invoices: off without SELLER_*, read with them, and refused in one line naming what is missing', () => {
  expect(loadConfig({}).invoice).toBeNull()
  const seller = {
    SELLER_NAME: 'Jürgen Müller',
    SELLER_STREET: 'Hauptstraße 5',
    SELLER_POSTCODE: '10115',
    SELLER_CITY: 'Berlin',
    SELLER_VAT_ID: 'de 123 456 789',
  }
  expect(loadConfig({ ...seller, SELLER_VAT_RATE: '7,5', SELLER_IBAN: 'de89 3704 0044 0532 0130 00' }).invoice).toEqual({
    name: 'Jürgen Müller',
    street: 'Hauptstraße 5',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
    taxNumber: null,
    vatId: 'DE123456789',
    smallBusiness: false,
    vatRate: 750,
    iban: 'DE89370400440532013000',
    bic: null,
    bankName: null,
  })
  let message = ''
  try {
    loadConfig({ SELLER_NAME: 'Jürgen Müller', SELLER_CITY: 'Berlin' })
  } catch (error) {
    message = (error as Error).message
  }
  const lines = message.split('\n').slice(1)
  expect(lines).toEqual([
    "  SELLER_NAME: invoices are on (a SELLER_* variable is set), but SELLER_STREET, SELLER_POSTCODE, SELLER_TAX_NUMBER or SELLER_VAT_ID are missing: an invoice needs the seller's name, address and tax number or VAT ID (§14 Abs. 4 UStG)",
  ])
  expect(() => loadConfig({ SELLER_SMALL_BUSINESS: 'true' })).toThrow(
    /SELLER_NAME, SELLER_STREET, SELLER_POSTCODE, SELLER_CITY, SELLER_TAX_NUMBER or SELLER_VAT_ID are missing/,
  )
  expect(() => loadConfig({ ...seller, SELLER_NAME: 'Müller\nBcc: x@example.org' })).toThrow(/SELLER_NAME: must be one line without control characters/)
  expect(() => loadConfig({ ...seller, SELLER_VAT_RATE: '19 %' })).toThrow(/SELLER_VAT_RATE: must be a VAT rate in percent/)
})

test('the daily checks are on unless DOMAIN_CHECKS=off; SERVER_ADDRESSES lists addresses and host names; the resolver is IP[:PORT]', () => {
  expect(
    loadConfig({ DOMAIN_CHECKS: 'off', SERVER_ADDRESSES: '203.0.113.7, 2001:DB8::7 lander.example.net.', DOMAIN_CHECK_RESOLVER: '127.0.0.1:5353' })
      .domainChecks,
  ).toEqual({
    daily: false,
    serverAddresses: ['203.0.113.7', '2001:db8::7', 'lander.example.net'],
    resolver: '127.0.0.1:5353',
  })
  expect(() => loadConfig({ SERVER_ADDRESSES: '203.0.113.7,<script>' })).toThrow(/SERVER_ADDRESSES: must list IP addresses and host names/)
  expect(() => loadConfig({ DOMAIN_CHECK_RESOLVER: 'dns.example' })).toThrow(/DOMAIN_CHECK_RESOLVER: must be the resolver as IP/)
  expect(() => loadConfig({ DOMAIN_CHECKS: 'weekly' })).toThrow(/DOMAIN_CHECKS: must be daily or off/)
})
