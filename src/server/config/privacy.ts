// The page's legal texts and how long inquiries are kept (docs/privacy.md).
import path from 'node:path'
import { z } from 'zod'
import { httpUrl } from './fields.ts'

const RETENTION_ERROR = 'must be a whole number of days from 1 to 36500 (e.g. 365), or off'

export const privacyEnv = z.object({
  IMPRINT_URL: httpUrl.optional(),
  PRIVACY_URL: httpUrl.optional(),
  IMPRINT_FILE: z.string().min(1).optional(),
  PRIVACY_FILE: z.string().min(1).optional(),
  // GDPR: inquiries are erased this many days after their last activity (docs/privacy.md); unset or off: kept.
  RETENTION_DAYS: z
    .union([z.literal('off'), z.coerce.number({ error: RETENTION_ERROR }).int(RETENTION_ERROR).min(1, RETENTION_ERROR).max(36_500, RETENTION_ERROR)], {
      error: RETENTION_ERROR,
    })
    .optional(),
})

export const privacyConfig = (env: z.output<typeof privacyEnv>) => ({
  retentionDays: env.RETENTION_DAYS === 'off' ? undefined : env.RETENTION_DAYS,
  legal: {
    imprintUrl: env.IMPRINT_URL,
    privacyUrl: env.PRIVACY_URL,
    imprintFile: env.IMPRINT_FILE && path.resolve(env.IMPRINT_FILE),
    privacyFile: env.PRIVACY_FILE && path.resolve(env.PRIVACY_FILE),
  },
})
