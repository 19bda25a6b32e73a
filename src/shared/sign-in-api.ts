// Passkeys, the second factor and the sessions page (decision 041): what the console's pages and the server
// exchange. Nothing here may import server code.
import * as z from 'zod/mini'

export const SIGN_IN_PATHS = { security: '/anmeldung', sessions: '/sitzungen' } as const

export const PASSKEY_NAME_MAX = 60

const passkeyViewSchema = z.object({
  id: z.number(),
  /** As the owner typed it: shown as text. */
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.nullable(z.number()),
})

/** GET /anmeldung */
export const securityPageDataSchema = z.object({
  passkeys: z.array(passkeyViewSchema),
  /** Why passkeys cannot work at this address (plain http on a name that is not localhost), or null. */
  passkeyProblem: z.nullable(z.string()),
  secondFactor: z.object({ on: z.boolean(), recoveryCodesLeft: z.number() }),
})
export type SecurityPageData = z.infer<typeof securityPageDataSchema>

/**
 * POST /api/second-factor/setup: the secret (for typing it in), and its QR code as an SVG path. With the recovery
 * codes below, the only answers that carry a secret, as they did before the schemas: the owner needs each once.
 */
export const secondFactorSetupSchema = z.object({ secret: z.string(), uri: z.string(), qr: z.object({ size: z.number(), path: z.string() }) })
export type SecondFactorSetup = z.infer<typeof secondFactorSetupSchema>

/** POST /api/second-factor/confirm: the recovery codes, shown this once. */
export const secondFactorConfirmedSchema = z.object({ recoveryCodes: z.array(z.string()) })
export type SecondFactorConfirmed = z.infer<typeof secondFactorConfirmedSchema>

/** POST /api/second-factor/disable: the sessions ended with it, this one too. */
export const signedOutSchema = z.object({ signedOut: z.literal(true) })

const sessionViewSchema = z.object({
  /** Opaque: DELETE /api/sessions/:ref ends it. */
  ref: z.string(),
  current: z.boolean(),
  createdAt: z.number(),
  lastSeenAt: z.number(),
  browser: z.string(),
  address: z.nullable(z.string()),
  method: z.nullable(z.string()),
})

/** GET /sitzungen */
export const sessionsPageDataSchema = z.object({ sessions: z.array(sessionViewSchema) })
export type SessionsPageData = z.infer<typeof sessionsPageDataSchema>

/** POST /api/session answers this (200) when the password was right and a code is still needed. */
export const secondFactorNeededSchema = z.object({ secondFactor: z.literal(true) })
/** POST /api/session: 204 (signed in) is read as null. */
export const signInAnswerSchema = z.nullable(secondFactorNeededSchema)

/**
 * The WebAuthn options of POST /api/passkeys/options and /api/session/passkey/options, made by @simplewebauthn/server
 * and handed to the browser's own API as they are: the schema names what every such answer has and lets the rest
 * through (the library's shape is its own, and it grows), typed as the library's type that each side names.
 */
export const passkeyOptionsSchema = <T extends { challenge: string }>() => z.looseObject({ challenge: z.string() }) as unknown as z.ZodMiniType<T>
