// Signing in and out of the console, and the guard in front of everything else on the admin port
// (docs/decisions/016, its limits 031).
import { createHash } from 'node:crypto'
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { CONSOLE_PATHS, type SignInRequest } from '../../../shared/console-api.ts'
import { passkeyOptionsSchema, secondFactorNeededSchema } from '../../../shared/sign-in-api.ts'
import { TEXT } from '../../../shared/texts.ts'
import { clientKeyOf } from '../../http/client-address.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import type { RateLimits } from '../../store/rate-limit-common.ts'
import { auditActorOfHash, auditAs, noteAudit, signInDetail, signInSubject, skipAudit } from '../audit/record.ts'
import { verifyPassword } from '../password.ts'
import { sendPage } from '../render.ts'
import { browserSummary, partialAddress } from '../security/client-summary.ts'
import { CHALLENGE_MS, challengeOf, problemLogger, relyingPartyOf } from '../security/relying-party.ts'
import { looksLikeRecoveryCode, openedTotpSecret, recoveryCodeHash, totpStepOf } from '../security/second-factor.ts'
import { CONSOLE_TEXT } from '../texts.ts'
import { clearSessionCookie, hashOfSessionId, newSessionId, setSessionCookie, sessionIdOf } from './cookie.ts'
import { hasSession, sendError } from './guard.ts'
import type { ConsoleApp } from '../decorations.ts'

// WebAuthn's library and its ASN.1 and X.509 code (200 kB) load with the first passkey request, not with every
// start of the server: the public page never needs them (decision 034).
const webAuthn = () => import('@simplewebauthn/server')

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
 * Wrong passwords of all clients together within the window: the limit no choice of addresses escapes (an IPv6
 * network, a botnet, a proxy setting that believes the client's X-Forwarded-For). Reaching it closes the password
 * step to the owner too, until the window has run out or `set-password` (docs/decisions/031); a passkey still signs
 * in (docs/decisions/041, "Budgets").
 */
export const SIGN_IN_FAILURES_ALL = 50
/**
 * Wrong second-factor codes after the right password, of all clients together within a day. Whoever reaches the code
 * step has the password, so this cap, not the window, bounds the guesses at a 6-digit code (decision 041, "Budgets").
 */
export const CODE_FAILURES_DAY = 30
const DAY_MS = 24 * 60 * 60 * 1000
/**
 * Refused passkey answers per client within the window. No count of all clients: an answer cannot be guessed, and
 * a count others can fill would lock the owner's way in.
 */
const PASSKEY_FAILURES = 10
/**
 * Failed sign-ins without a count of all clients (passkeys, recovery codes) written to the audit trail within the
 * window: past it they are refused as before, but unrecorded, so that rotating addresses cannot grow the table.
 */
const AUDITED_FAILURES = 50
/** One budget of failures: whose (key), how many (limit) within which window, and the log line when it is full. */
interface Budget {
  quota: ReturnType<RateLimits['quota']>
  key: string
  limit: number
  windowMs: number
  why: string
}

/** A password is a few dozen bytes of JSON; a sign-in that declares more than this is refused unread. */
export const SIGN_IN_BODY_LIMIT = 1024

/**
 * The counters belong to the password they guard: a new one (set-password, in the store, so every process and
 * instance sees it at once) starts them afresh, the owner's way back in after a lock-out.
 */
const generationOf = (hash: string | null) => (hash === null ? 'none' : createHash('sha256').update(hash).digest('base64url').slice(0, 22))

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

/** The counts of the code step belong to the password and to the TOTP secret: a new one of either starts them afresh. */
const codeGenerationOf = (passwordHash: string | null, sealedSecret: string) =>
  `${generationOf(passwordHash)} ${createHash('sha256').update(sealedSecret).digest('base64url').slice(0, 22)}`

export default async function sessionRoutes(instance: ConsoleApp) {
  const { store, config, rateLimits, renderer, log } = instance
  const app = instance.withTypeProvider<ZodTypeProvider>()
  // Each way in has budgets of its own (decision 041, "Budgets"): wrong passwords do not close the code step, wrong
  // TOTP codes do not close the recovery codes, and nothing closes the passkeys for everyone.
  const failures = rateLimits.quota('console-sign-in')
  const allFailures = rateLimits.quota('console-sign-in-all')
  const codeFailures = rateLimits.quota('console-code')
  const dayCodeFailures = rateLimits.quota('console-code-day')
  const recoveryFailures = rateLimits.quota('console-recovery')
  const passkeyFailures = rateLimits.quota('console-passkey')
  const auditedFailures = rateLimits.quota('console-sign-in-audited')
  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  /** What a sign-in took from the quotas, given back when its password was right. */
  const giveBack = new WeakMap<FastifyRequest, () => Promise<void>>()

  const refuse = (request: FastifyRequest, reply: FastifyReply, retryAfterMs: number, why: string, text: string = CONSOLE_TEXT.session.tooManyFailures) => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
    request.log.warn({ retryAfter: seconds }, `console: ${why}, sign-in is refused for ${seconds} s`)
    // Like a refusal before the body (which writes no row): a quota that is full bounds the audit trail too.
    skipAudit(request)
    return sendError(reply.header('retry-after', String(seconds)), 429, text)
  }

  /**
   * A client's budget, then the budget of all clients together: a request over either is refused; otherwise the
   * function that gives both back (the caller's guess was right).
   */
  async function takeBudgets(request: FastifyRequest, reply: FastifyReply, text: string, mine: Budget, all: Budget) {
    const client = await mine.quota.take(mine.key, mine.limit, mine.windowMs)
    if (client.status === 'full') return { refused: refuse(request, reply, client.retryAfterMs, mine.why, text) }
    const everyone = await all.quota.take(all.key, all.limit, all.windowMs)
    if (everyone.status === 'full') {
      // Not a guess that was checked: the client's own count is not spent on it.
      await client.giveBack()
      return { refused: refuse(request, reply, everyone.retryAfterMs, all.why, text) }
    }
    return {
      giveBack: async () => {
        await client.giveBack()
        await everyone.giveBack()
      },
    }
  }

  /** A failed sign-in past the audited ones of this window is refused without a row (it still is in the log). */
  const boundAudit = async (request: FastifyRequest) => {
    if ((await auditedFailures.take('all', AUDITED_FAILURES, SIGN_IN_WINDOW_MS)).status === 'full') skipAudit(request)
  }

  /**
   * Before the body is read (onRequest): a sign-in that declares a large body is refused unread, and one over a
   * quota is refused before it costs more than its head. Counted before the password is checked, so that guesses
   * sent together cannot all pass; a right password gives its counts back.
   */
  const checkQuotas = (bodyLimit: number) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (Number(request.headers['content-length']) > bodyLimit) return sendError(reply, 413, TEXT.tooLarge)
    const generation = generationOf(await store.ownerPassword())
    const taken = await takeBudgets(
      request,
      reply,
      CONSOLE_TEXT.session.tooManyFailures,
      {
        quota: failures,
        key: `${generation} ${clientKey(request)}`,
        limit: SIGN_IN_FAILURES,
        windowMs: SIGN_IN_WINDOW_MS,
        why: `${SIGN_IN_FAILURES} wrong passwords from one client`,
      },
      {
        quota: allFailures,
        key: generation,
        limit: SIGN_IN_FAILURES_ALL,
        windowMs: SIGN_IN_WINDOW_MS,
        why: `${SIGN_IN_FAILURES_ALL} wrong passwords from all clients together (a passkey still signs in; npx domain-lander set-password ends this)`,
      },
    )
    if ('refused' in taken) return taken.refused
    giveBack.set(request, taken.giveBack)
  }

  /** The passkey's own count, per client only: failed passwords and codes never close it. */
  const checkPasskeyQuota = async (request: FastifyRequest, reply: FastifyReply) => {
    if (Number(request.headers['content-length']) > PASSKEY_BODY_LIMIT) return sendError(reply, 413, TEXT.tooLarge)
    const mine = await passkeyFailures.take(clientKey(request), PASSKEY_FAILURES, SIGN_IN_WINDOW_MS)
    if (mine.status === 'full') {
      return refuse(request, reply, mine.retryAfterMs, `${PASSKEY_FAILURES} refused passkeys from one client`, CONSOLE_TEXT.session.tooManyPasskeyFailures)
    }
    giveBack.set(request, mine.giveBack)
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

  /**
   * The second factor's step, after the right password: an unused recovery code, or a TOTP code of a step not used
   * before, each against its own budget (decision 041, "Budgets"). Answers the request.
   */
  async function secondFactorStep(request: FastifyRequest, reply: FastifyReply, passwordHash: string, sealed: string, code: string) {
    const trimmed = code.trim()
    const wrong = () => {
      request.log.info('console: wrong or used second-factor code')
      return sendError(reply, 401, CONSOLE_TEXT.session.wrongCode)
    }
    const generation = codeGenerationOf(passwordHash, sealed)
    if (looksLikeRecoveryCode(trimmed)) {
      // Some 59 random bits each: a budget per client bounds the work, and none of all clients, so that guessed TOTP
      // codes and guessed recovery codes from elsewhere leave the owner this way in.
      const mine = await recoveryFailures.take(`${generation} ${clientKey(request)}`, SIGN_IN_FAILURES, SIGN_IN_WINDOW_MS)
      if (mine.status === 'full') {
        return refuse(request, reply, mine.retryAfterMs, `${SIGN_IN_FAILURES} wrong recovery codes from one client`, CONSOLE_TEXT.session.tooManyCodes)
      }
      if (!(await store.useRecoveryCode(recoveryCodeHash(trimmed), Date.now()))) {
        await boundAudit(request)
        return wrong()
      }
      await mine.giveBack()
      return openSession(request, reply, 'password+recovery')
    }
    const taken = await takeBudgets(
      request,
      reply,
      CONSOLE_TEXT.session.tooManyCodes,
      {
        quota: codeFailures,
        key: `${generation} ${clientKey(request)}`,
        limit: SIGN_IN_FAILURES,
        windowMs: SIGN_IN_WINDOW_MS,
        why: `${SIGN_IN_FAILURES} wrong codes from one client`,
      },
      {
        quota: dayCodeFailures,
        key: generation,
        limit: CODE_FAILURES_DAY,
        windowMs: DAY_MS,
        why: `${CODE_FAILURES_DAY} wrong codes from all clients together within 24 hours: someone has the password (a passkey or a recovery code still signs in; npx domain-lander set-password ends this)`,
      },
    )
    if ('refused' in taken) return taken.refused
    const secret = openedTotpSecret(config, sealed)
    if (secret === null) request.log.error("console: the second factor's secret does not open with this deal key (DEAL_KEY differs?)")
    const step = totpStepOf(secret, trimmed.replace(/\s/g, ''), Date.now())
    if (step === null || !(await store.useTotpStep(step))) return wrong()
    await taken.giveBack()
    return openSession(request, reply, 'password+totp')
  }

  app.get(CONSOLE_PATHS.signin, { schema: { response: { 200: sentAsIs, 303: z.undefined() } } }, async (request, reply) => {
    if ((await store.ownerPassword()) === null) return sendPage(reply, renderer, { page: 'setup' })
    if (await hasSession(request)) return reply.code(303).header('location', CONSOLE_PATHS.inbox).send()
    const rp = relyingPartyOf(config, request)
    tellProblem(rp)
    const passkey = rp.ok && (await store.listPasskeys()).length > 0
    return sendPage(reply, renderer, passkey ? { page: 'signin', passkey: true } : { page: 'signin' })
  })

  const signIn = { body: signInBody, response: { 200: secondFactorNeededSchema, ...noContent } }
  const byPassword = { bodyLimit: SIGN_IN_BODY_LIMIT, onRequest: checkQuotas(SIGN_IN_BODY_LIMIT), config: auditAs('sign-in', signInSubject('password')) }
  app.post('/api/session', { ...byPassword, schema: signIn }, async (request, reply) => {
    const { password, code } = request.body satisfies Record<keyof SignInRequest, string>
    const hash = await store.ownerPassword()
    // Verified whatever the input: a missing field, no password set or a wrong one take the same time.
    const right = await verifyPassword(password, hash)
    if (hash === null) return sendError(reply, 401, CONSOLE_TEXT.session.setup)
    if (!right) {
      request.log.info('console: wrong password')
      return sendError(reply, 401, CONSOLE_TEXT.session.wrongPassword)
    }
    // The password was right: its counts go back in every case. A code is counted in budgets of its own.
    await giveBack.get(request)?.()
    const totp = await store.totp()
    if (totp?.confirmedAt != null) {
      if (code === '') {
        // Not a sign-in yet: the request with the code writes the row.
        skipAudit(request)
        return reply.code(200).type('application/json; charset=utf-8').send({ secondFactor: true })
      }
      return secondFactorStep(request, reply, hash, totp.secret, code)
    }
    return openSession(request, reply, 'password')
  })

  // Passkeys (decision 041): a challenge for any passkey of this console (discoverable credentials), then its answer.
  // WebAuthn's options, as its library writes them.
  app.post(
    '/api/session/passkey/options',
    { bodyLimit: SIGN_IN_BODY_LIMIT, schema: { response: { 200: passkeyOptionsSchema<PublicKeyCredentialRequestOptionsJSON>() } }, config: { audit: null } },
    async (request, reply) => {
      const rp = relyingPartyOf(config, request)
      tellProblem(rp)
      if (!rp.ok) return sendError(reply, 409, rp.problem)
      const options = await (await webAuthn()).generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'required', timeout: 60_000 })
      const now = Date.now()
      await store.putChallenge(options.challenge, 'sign-in', null, now + CHALLENGE_MS, now)
      return options
    },
  )

  const passkeySignIn = { body: passkeySignInBody, response: noContent }
  const byPasskey = { bodyLimit: PASSKEY_BODY_LIMIT, onRequest: checkPasskeyQuota, config: auditAs('sign-in', signInSubject('passkey')) }
  app.post('/api/session/passkey', { ...byPasskey, schema: passkeySignIn }, async (request, reply) => {
    const rp = relyingPartyOf(config, request)
    if (!rp.ok) return sendError(reply, 409, rp.problem)
    const { response } = request.body
    const challenge = challengeOf(response?.response)
    // Taken before anything else is checked: a challenge answers once, whatever the answer.
    const taken = challenge === null ? null : await store.takeChallenge(challenge, 'sign-in', Date.now())
    const passkey = typeof response?.id === 'string' ? await store.passkeyByCredentialId(response.id) : null
    const refuse = async (why: string) => {
      request.log.info({ why }, 'console: passkey refused')
      await boundAudit(request)
      return sendError(reply, 401, CONSOLE_TEXT.session.passkeyRefused)
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
  })

  app.delete('/api/session', { schema: { response: noContent }, config: { audit: 'sign-out' } }, async (request, reply) => {
    const id = sessionIdOf(request)
    if (id !== null) await store.deleteSession(hashOfSessionId(id))
    return clearSessionCookie(request, reply).code(204).send()
  })
}
