// Signing in and out of the console, and the guard in front of everything else on the admin port
// (docs/decisions/016, its limits 031).
import { createHash } from 'node:crypto'
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { CONSOLE_PATHS, type SignInRequest } from '../../../shared/console-api.ts'
import { TEXT } from '../../../shared/texts.ts'
import { clientKeyOf } from '../../http/client-address.ts'
import { jsonOf, sentAsIs } from '../../http/zod-schemas.ts'
import { auditActorOfHash, noteAudit, signInDetail, skipAudit } from '../audit/record.ts'
import { verifyPassword } from '../password.ts'
import { sendPage } from '../render.ts'
import { browserSummary, partialAddress } from '../security/client-summary.ts'
import { CHALLENGE_MS, challengeOf, problemLogger, relyingPartyOf } from '../security/relying-party.ts'
import { looksLikeRecoveryCode, openedTotpSecret, recoveryCodeHash, totpStepOf } from '../security/second-factor.ts'
import { SESSION_IDLE_MS, SESSION_MAX_MS, clearSessionCookie, hashOfSessionId, newSessionId, setSessionCookie, sessionIdOf } from './cookie.ts'

// WebAuthn's library and its ASN.1 and X.509 code (200 kB) load with the first passkey request, not with every
// start of the server: the public page never needs them (decision 034).
const webAuthn = () => import('@simplewebauthn/server')

const CONSOLE_TEXT = {
  signIn: 'Bitte anmelden.',
  wrongPassword: 'Das Passwort ist falsch.',
  setup: 'Für die Konsole ist noch kein Passwort gesetzt. Setzen Sie es auf dem Server mit: npx domain-lander set-password',
  tooManyFailures: 'Zu viele falsche Passwörter. Bitte versuchen Sie es später erneut.',
  wrongCode: 'Der Code ist falsch oder wurde schon benutzt.',
  passkeyRefused: 'Der Passkey wurde nicht angenommen. Bitte erneut versuchen.',
} as const

/** A passkey's answer is some hundred bytes of base64url JSON; more is refused unread. */
const PASSKEY_BODY_LIMIT = 16 * 1024

/** What the sessions page will show of this session: the browser in short and the address in part. */
const sessionDetails = (request: FastifyRequest, method: string) => ({
  userAgent: browserSummary(request.headers['user-agent']),
  address: partialAddress(request.ip),
  method,
})

/** Failed sign-ins per client address within the window; the next one is refused (429) until it has run out. */
const SIGN_IN_FAILURES = 5
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000
/**
 * Failed sign-ins of all clients together within the window: the limit no choice of addresses escapes (an IPv6
 * network, a botnet, a proxy setting that believes the client's X-Forwarded-For). Reaching it locks the owner out
 * too, until the window has run out or `set-password` (docs/decisions/031).
 */
export const SIGN_IN_FAILURES_ALL = 50
/** A password is a few dozen bytes of JSON; a sign-in that declares more than this is refused unread. */
export const SIGN_IN_BODY_LIMIT = 1024

/**
 * The counters belong to the password they guard: a new one (set-password, in the store, so every process and
 * instance sees it at once) starts them afresh, the owner's way back in after a lock-out.
 */
const generationOf = (hash: string | null) => (hash === null ? 'none' : createHash('sha256').update(hash).digest('base64url').slice(0, 22))

/** What answers without a session: the sign-in page, signing in, and the console's static files. */
const OPEN_ROUTES = new Set([
  'GET /anmelden',
  'HEAD /anmelden',
  'POST /api/session',
  'POST /api/session/passkey/options',
  'POST /api/session/passkey',
  'GET /assets/*',
  'HEAD /assets/*',
])

const sendError = (reply: FastifyReply, status: number, error: string) => reply.code(status).type('application/json; charset=utf-8').send({ error })

/** A page is what a browser navigates to; everything else (the API, other methods) is answered with JSON. */
const wantsPage = (request: FastifyRequest) => (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/')

/** Whether the request carries a session that is valid now; using it keeps it alive. */
async function hasSession(request: FastifyRequest): Promise<boolean> {
  const id = sessionIdOf(request)
  return id !== null && request.server.store.useSession(hashOfSessionId(id), Date.now(), SESSION_IDLE_MS, SESSION_MAX_MS)
}

/**
 * Every request but the open routes needs a session: this is the app's root onRequest hook, so a route added
 * later, and every path that matches none, is guarded without asking for it.
 */
export async function sessionGuard(request: FastifyRequest, reply: FastifyReply) {
  if (OPEN_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return
  if (await hasSession(request)) return
  const { store, renderer } = request.server
  if ((await store.ownerPassword()) === null) {
    return wantsPage(request) ? sendPage(reply, renderer, { page: 'setup' }) : sendError(reply, 401, CONSOLE_TEXT.setup)
  }
  if (wantsPage(request)) return reply.code(303).header('location', CONSOLE_PATHS.signin).send()
  return sendError(reply, 401, CONSOLE_TEXT.signIn)
}

// Anything may arrive, and nothing is refused for its shape: a sign-in that is not one is answered like a wrong
// password, in the same time (the password is verified whatever the input). Only a string is a password or a code.
const anyObject = (value: unknown) => (typeof value === 'object' && value !== null ? value : {})
const text = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' ? value : ''))
const signInBody = z.preprocess(anyObject, z.object({ password: text, code: text.transform((code) => code.slice(0, 64)) }))
const passkeySignInBody = z.preprocess(anyObject, z.object({ response: z.custom<AuthenticationResponseJSON | undefined>() }))
const noContent = { 204: z.undefined() }

export default async function sessionRoutes(instance: FastifyInstance) {
  const { store, config, rateLimits, renderer, log } = instance
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const failures = rateLimits.quota('console-sign-in')
  const allFailures = rateLimits.quota('console-sign-in-all')
  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  /** What a sign-in took from the quotas, given back when its password was right. */
  const giveBack = new WeakMap<FastifyRequest, () => Promise<void>>()

  const refuse = (request: FastifyRequest, reply: FastifyReply, retryAfterMs: number, why: string) => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
    request.log.warn({ retryAfter: seconds }, `console: ${why}, sign-in is refused for ${seconds} s`)
    return sendError(reply.header('retry-after', String(seconds)), 429, CONSOLE_TEXT.tooManyFailures)
  }

  /**
   * Before the body is read (onRequest): a sign-in that declares a large body is refused unread, and one over a
   * quota is refused before it costs more than its head. Counted before the password is checked, so that guesses
   * sent together cannot all pass; a right password gives its counts back.
   */
  const checkQuotas = (bodyLimit: number) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (Number(request.headers['content-length']) > bodyLimit) return sendError(reply, 413, TEXT.tooLarge)
    const generation = generationOf(await store.ownerPassword())
    const mine = await failures.take(`${generation} ${clientKey(request)}`, SIGN_IN_FAILURES, SIGN_IN_WINDOW_MS)
    if (mine.status === 'full') return refuse(request, reply, mine.retryAfterMs, `${SIGN_IN_FAILURES} wrong passwords from one client`)
    const all = await allFailures.take(generation, SIGN_IN_FAILURES_ALL, SIGN_IN_WINDOW_MS)
    if (all.status === 'full') {
      // Not a guess that was checked: the client's own count is not spent on it.
      await mine.giveBack()
      return refuse(
        request,
        reply,
        all.retryAfterMs,
        `${SIGN_IN_FAILURES_ALL} wrong passwords from all clients together (npx domain-lander set-password ends this)`,
      )
    }
    giveBack.set(request, async () => {
      await mine.giveBack()
      await all.giveBack()
    })
  }
  const tellProblem = problemLogger(log)

  /** A new session for this browser; any session it brought along ends (a session fixed by someone else is never taken over). */
  async function openSession(request: FastifyRequest, reply: FastifyReply, method: string) {
    const previous = sessionIdOf(request)
    if (previous !== null) await store.deleteSession(hashOfSessionId(previous))
    const id = newSessionId()
    await store.createSession(hashOfSessionId(id), Date.now(), sessionDetails(request, method))
    noteAudit(request, { actor: auditActorOfHash(hashOfSessionId(id)), detail: signInDetail(method, request) })
    request.log.info({ method }, 'console: signed in')
    return setSessionCookie(request, reply, id).code(204).send()
  }

  /** The second factor's code: a TOTP code of a step not used before, or an unused recovery code. */
  async function secondFactorPasses(request: FastifyRequest, sealed: string, code: string): Promise<'totp' | 'recovery' | null> {
    const trimmed = code.trim()
    const secret = openedTotpSecret(config, sealed)
    // Recovery codes still pass: they are hashes, not sealed.
    if (secret === null) request.log.error("console: the second factor's secret does not open with this deal key (DEAL_KEY differs?)")
    const step = totpStepOf(secret, trimmed.replace(/\s/g, ''), Date.now())
    if (step !== null) return (await store.useTotpStep(step)) ? 'totp' : null
    if (looksLikeRecoveryCode(trimmed)) return (await store.useRecoveryCode(recoveryCodeHash(trimmed), Date.now())) ? 'recovery' : null
    return null
  }

  app.get(CONSOLE_PATHS.signin, { schema: { response: { 200: sentAsIs, 303: z.undefined() } } }, async (request, reply) => {
    if ((await store.ownerPassword()) === null) return sendPage(reply, renderer, { page: 'setup' })
    if (await hasSession(request)) return reply.code(303).header('location', CONSOLE_PATHS.inbox).send()
    const rp = relyingPartyOf(config, request)
    tellProblem(rp)
    const passkey = rp.ok && (await store.listPasskeys()).length > 0
    return sendPage(reply, renderer, passkey ? { page: 'signin', passkey: true } : { page: 'signin' })
  })

  const signIn = { body: signInBody, response: { 200: z.object({ secondFactor: z.literal(true) }), ...noContent } }
  app.post('/api/session', { bodyLimit: SIGN_IN_BODY_LIMIT, onRequest: checkQuotas(SIGN_IN_BODY_LIMIT), schema: signIn }, async (request, reply) => {
    const { password, code } = request.body satisfies Record<keyof SignInRequest, string>
    const hash = await store.ownerPassword()
    // Verified whatever the input: a missing field, no password set or a wrong one take the same time.
    const right = await verifyPassword(password, hash)
    if (hash === null) return sendError(reply, 401, CONSOLE_TEXT.setup)
    if (!right) {
      request.log.info('console: wrong password')
      return sendError(reply, 401, CONSOLE_TEXT.wrongPassword)
    }
    const totp = await store.totp()
    if (totp?.confirmedAt != null) {
      if (code === '') {
        // The password was right: no guess spent. A guess at the code below is counted like a wrong password.
        await giveBack.get(request)?.()
        // Not a sign-in yet: the request with the code writes the row.
        skipAudit(request)
        return reply.code(200).type('application/json; charset=utf-8').send({ secondFactor: true })
      }
      const passed = await secondFactorPasses(request, totp.secret, code)
      if (passed === null) {
        request.log.info('console: wrong or used second-factor code')
        return sendError(reply, 401, CONSOLE_TEXT.wrongCode)
      }
      await giveBack.get(request)?.()
      return openSession(request, reply, passed === 'totp' ? 'password+totp' : 'password+recovery')
    }
    await giveBack.get(request)?.()
    return openSession(request, reply, 'password')
  })

  // Passkeys (decision 041): a challenge for any passkey of this console (discoverable credentials), then its answer.
  // WebAuthn's options, as its library writes them.
  app.post('/api/session/passkey/options', { bodyLimit: SIGN_IN_BODY_LIMIT, schema: { response: { 200: jsonOf<object>() } } }, async (request, reply) => {
    const rp = relyingPartyOf(config, request)
    tellProblem(rp)
    if (!rp.ok) return sendError(reply, 409, rp.problem)
    const options = await (await webAuthn()).generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'required', timeout: 60_000 })
    const now = Date.now()
    await store.putChallenge(options.challenge, 'sign-in', null, now + CHALLENGE_MS, now)
    return options
  })

  const passkeySignIn = { body: passkeySignInBody, response: noContent }
  app.post(
    '/api/session/passkey',
    { bodyLimit: PASSKEY_BODY_LIMIT, onRequest: checkQuotas(PASSKEY_BODY_LIMIT), schema: passkeySignIn },
    async (request, reply) => {
      const rp = relyingPartyOf(config, request)
      if (!rp.ok) return sendError(reply, 409, rp.problem)
      const { response } = request.body
      const challenge = challengeOf(response?.response)
      // Taken before anything else is checked: a challenge answers once, whatever the answer.
      const taken = challenge === null ? null : await store.takeChallenge(challenge, 'sign-in', Date.now())
      const passkey = typeof response?.id === 'string' ? await store.passkeyByCredentialId(response.id) : null
      const refuse = (why: string) => {
        request.log.info({ why }, 'console: passkey refused')
        return sendError(reply, 401, CONSOLE_TEXT.passkeyRefused)
      }
      if (!taken || !challenge || !response) return refuse('unknown, used or expired challenge')
      if (!passkey) return refuse('unknown passkey')
      let newCounter: number
      try {
        const result = await (
          await webAuthn()
        ).verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: true,
          credential: {
            id: passkey.credentialId,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: passkey.transports as never,
          },
        })
        if (!result.verified) return refuse('signature')
        newCounter = result.authenticationInfo.newCounter
      } catch (error) {
        // The library's message says which check failed (origin, RP id, counter); it holds nothing secret.
        return refuse((error as Error).message.slice(0, 200))
      }
      if (!(await store.usePasskey(passkey.id, passkey.counter, newCounter, Date.now()))) return refuse('counter moved meanwhile')
      await giveBack.get(request)?.()
      return openSession(request, reply, 'passkey')
    },
  )

  app.delete('/api/session', { schema: { response: noContent } }, async (request, reply) => {
    const id = sessionIdOf(request)
    if (id !== null) await store.deleteSession(hashOfSessionId(id))
    return clearSessionCookie(request, reply).code(204).send()
  })
}
