// The public page: whom it believes about the client's address, what a client may make it do, the contact form,
// and the TLS certificates it approves.
import { z } from 'zod'
import { flag, trustProxy } from './fields.ts'

const IPV6_PREFIX_ERROR = 'must be a whole number from 32 to 128 (how many leading bits of an IPv6 address make one client)'

const PER_MINUTE_ERROR = 'must be a whole number per client and minute from 0 to 100000 (0: no limit)'

export const publicPageEnv = z.object({
  CONTACT_SECRET: z.string().min(16, 'must be at least 16 characters long').optional(),
  CONTACT_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
  MIN_FILL_SECONDS: z.coerce.number().min(0).max(3600).default(3),
  TRUST_PROXY: trustProxy.default(false),
  RATE_LIMIT_IPV6_PREFIX: z.coerce
    .number({ error: IPV6_PREFIX_ERROR })
    .int({ error: IPV6_PREFIX_ERROR })
    .min(32, { error: IPV6_PREFIX_ERROR })
    .max(128, { error: IPV6_PREFIX_ERROR })
    .default(64),
  ALLOW_ANY_TLS: flag.default(false),
  TLS_WILDCARD_DAILY_LIMIT: z.coerce
    .number({ error: 'must be a whole number from 0 to 1000' })
    .int('must be a whole number from 0 to 1000')
    .min(0, 'must be a whole number from 0 to 1000')
    .max(1000, 'must be a whole number from 0 to 1000')
    .default(20),
  // Work a client may make this process do per minute (decision 032): lists of /domains that are not the plain
  // first page, and link-preview images not drawn yet. 0: no limit.
  SEARCH_RATE_LIMIT: z.coerce.number({ error: PER_MINUTE_ERROR }).int(PER_MINUTE_ERROR).min(0, PER_MINUTE_ERROR).max(100_000, PER_MINUTE_ERROR).default(30),
  IMAGE_RATE_LIMIT: z.coerce.number({ error: PER_MINUTE_ERROR }).int(PER_MINUTE_ERROR).min(0, PER_MINUTE_ERROR).max(100_000, PER_MINUTE_ERROR).default(10),
  LOCAL_PREVIEW: flag.default(true),
})

export const publicPageConfig = (env: z.output<typeof publicPageEnv>) => ({
  contactSecret: env.CONTACT_SECRET,
  contactRateLimit: env.CONTACT_RATE_LIMIT,
  minFillSeconds: env.MIN_FILL_SECONDS,
  trustProxy: env.TRUST_PROXY,
  rateLimitIpv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
  allowAnyTls: env.ALLOW_ANY_TLS,
  tlsWildcardDailyLimit: env.TLS_WILDCARD_DAILY_LIMIT,
  searchRateLimit: env.SEARCH_RATE_LIMIT,
  imageRateLimit: env.IMAGE_RATE_LIMIT,
  localPreview: env.LOCAL_PREVIEW,
})
