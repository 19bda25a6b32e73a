// Notifications of the owner by webhook and presets (docs/notifications.md).
import { z } from 'zod'
import { parseTargetList } from '../lib/notify-targets.ts'
import { flag } from './fields.ts'

/** Webhooks and presets (src/server/lib/notify-targets.ts), separated by commas or white space. */
const notifyUrls = z.string().transform((value, ctx) => {
  const { urls, errors } = parseTargetList(value)
  for (const error of errors) ctx.addIssue({ code: 'custom', message: error })
  return urls
})

export const notifyEnv = z.object({
  NOTIFY_URLS: notifyUrls.optional(),
  NOTIFY_SECRET: z.string().min(32, 'must be at least 32 characters long (e.g. the output of: openssl rand -hex 32)').optional(),
  NOTIFY_PERSONAL: flag.default(false),
})

type NotifyEnv = z.output<typeof notifyEnv>

export function checkNotify(env: NotifyEnv, ctx: z.RefinementCtx): void {
  if (env.NOTIFY_URLS?.length && !env.NOTIFY_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['NOTIFY_SECRET'],
      message: 'is required when NOTIFY_URLS is set: it signs every notification (e.g. the output of: openssl rand -hex 32)',
    })
  }
}

export const notifyConfig = (env: NotifyEnv) => ({
  notify: { urls: env.NOTIFY_URLS ?? [], secret: env.NOTIFY_SECRET, personal: env.NOTIFY_PERSONAL },
})
