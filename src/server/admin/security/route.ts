// The pages "Anmeldung" (passkeys, the second factor) and "Sitzungen" with their API (decision 041). Registered
// by the admin app behind the session check and the same-origin rule, like every console route.
import { createHash } from 'node:crypto'
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  PASSKEY_NAME_MAX,
  SIGN_IN_PATHS,
  passkeyOptionsSchema,
  secondFactorConfirmedSchema,
  secondFactorSetupSchema,
  securityPageDataSchema,
  sessionsPageDataSchema,
  signedOutSchema,
  type SecondFactorConfirmed,
  type SecondFactorSetup,
  type SecurityPageData,
  type SessionsPageData,
} from '../../../shared/sign-in-api.ts'
import { HttpError } from '../../http/errors.ts'
import { orEmpty, sentAsIs } from '../../http/zod-schemas.ts'
import { SESSION_IDLE_MS, SESSION_MAX_MS, clearSessionCookie, hashOfSessionId, sessionIdOf } from '../session/cookie.ts'
import { auditAs, numberedSubject } from '../audit/record.ts'
import { sendPage } from '../render.ts'
import { CONSOLE_TEXT } from '../texts.ts'
import { CHALLENGE_MS, challengeOf, problemLogger, relyingPartyOf } from './relying-party.ts'
import { newRecoveryCodes, newTotpSecret, openedTotpSecret, qrPath, recoveryCodeHash, sealedTotpSecret, totpStepOf, totpUri } from './second-factor.ts'
import type { ConsoleApp } from '../decorations.ts'

const T = CONSOLE_TEXT.security
const passkeyNumber = numberedSubject('Passkey')

// WebAuthn's library and its ASN.1 and X.509 code (200 kB) load with the first passkey request, not with every
// start of the server: the public page never needs them (decision 034).
const webAuthn = () => import('@simplewebauthn/server')

/** The console has one user, the owner: every passkey belongs to this WebAuthn user handle. */
const OWNER_HANDLE = new TextEncoder().encode('domain-lander-owner')

const idParams = z.object({ id: z.coerce.number().int().positive() })
const refParams = z.object({ ref: z.string().regex(/^[\w-]{22}$/) })
const codeBody = z.object({ code: z.string().trim().min(1, 'Bitte den Code eingeben.').max(64) })
const passkeyBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Bitte einen Namen angeben.')
    .max(PASSKEY_NAME_MAX, `höchstens ${PASSKEY_NAME_MAX} Zeichen`)
    // Names are shown as text anyway; control characters would only garble the list and the log.
    .refine((name) => !/[\p{Cc}\u2028\u2029]/u.test(name), 'keine Steuerzeichen'),
  response: z.looseObject({ id: z.string().max(1024), response: z.looseObject({ clientDataJSON: z.string().max(4096) }) }),
})

/** What the sessions page calls a session: derived from the id's hash, so neither the id nor its hash leaves the server. */
const refOf = (idHash: string) => createHash('sha256').update(`session-ref:${idHash}`).digest('base64url').slice(0, 22)

const currentHash = (request: FastifyRequest) => {
  const id = sessionIdOf(request)
  return id === null ? null : hashOfSessionId(id)
}

export default async function securityRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, config, log, renderer } = instance
  const page = { schema: { response: { 200: sentAsIs } } }
  const security = { response: { 200: securityPageDataSchema } }
  const sessions = { response: { 200: sessionsPageDataSchema } }
  const tellProblem = problemLogger(log)

  async function securityPage(request: FastifyRequest): Promise<SecurityPageData> {
    const rp = relyingPartyOf(config, request)
    tellProblem(rp)
    const [passkeys, totp, left] = [await store.listPasskeys(), await store.totp(), await store.recoveryCodesLeft()]
    return {
      passkeys: passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })),
      passkeyProblem: rp.ok ? null : rp.problem,
      secondFactor: { on: totp?.confirmedAt != null, recoveryCodesLeft: totp?.confirmedAt != null ? left : 0 },
    }
  }

  async function sessionsPage(request: FastifyRequest): Promise<SessionsPageData> {
    const mine = currentHash(request)
    const sessions = await store.listSessions(Date.now(), SESSION_IDLE_MS, SESSION_MAX_MS)
    return {
      sessions: sessions.map((session) => ({
        ref: refOf(session.idHash),
        current: session.idHash === mine,
        createdAt: session.createdAt,
        lastSeenAt: session.lastSeenAt,
        browser: session.userAgent ?? 'Unbekannter Browser',
        address: session.address,
        method: session.method,
      })),
    }
  }

  app.get(SIGN_IN_PATHS.security, page, async (request, reply) => sendPage(reply, renderer, { page: 'security', data: await securityPage(request) }))
  app.get('/api/security', { schema: security }, async (request) => securityPage(request))

  // WebAuthn's registration options, as its library writes them: a challenge, which changes nothing the trail records.
  const registrationOptions = { schema: { response: { 200: passkeyOptionsSchema<PublicKeyCredentialCreationOptionsJSON>() } }, config: { audit: null } }
  app.post('/api/passkeys/options', registrationOptions, async (request) => {
    const rp = relyingPartyOf(config, request)
    tellProblem(rp)
    if (!rp.ok) throw new HttpError(409, rp.problem)
    const existing = await store.listPasskeys()
    const options = await (
      await webAuthn()
    ).generateRegistrationOptions({
      rpName: 'domain-lander Konsole',
      rpID: rp.rpID,
      userName: 'Inhaber',
      userID: OWNER_HANDLE,
      attestationType: 'none',
      timeout: 60_000,
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      // Discoverable, so that signing in needs no name first; verified (PIN, fingerprint), so that it is a factor alone.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    })
    const now = Date.now()
    await store.putChallenge(options.challenge, 'register', currentHash(request), now + CHALLENGE_MS, now)
    return options
  })

  app.post('/api/passkeys', { bodyLimit: 64 * 1024, schema: { ...security, body: passkeyBody }, config: { audit: 'passkey-add' } }, async (request) => {
    const rp = relyingPartyOf(config, request)
    if (!rp.ok) throw new HttpError(409, rp.problem)
    const { body } = request
    const challenge = challengeOf(body.response.response)
    const taken = challenge === null ? null : await store.takeChallenge(challenge, 'register', Date.now())
    // A challenge handed to another session (another browser) is not this one's to answer.
    if (!taken || !challenge || taken.sessionHash !== currentHash(request)) {
      throw new HttpError(400, T.challengeGone)
    }
    let credential
    try {
      const result = await (
        await webAuthn()
      ).verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: true,
      })
      if (!result.verified) throw new Error('not verified')
      credential = result.registrationInfo.credential
    } catch (error) {
      log.info({ why: (error as Error).message.slice(0, 200) }, 'console: passkey not added')
      throw new HttpError(400, T.passkeyRefused)
    }
    const id = await store.addPasskey(
      {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: body.name,
      },
      Date.now(),
    )
    if (id === null) throw new HttpError(409, T.passkeyExists)
    log.info({ passkey: id }, 'console: passkey added')
    return securityPage(request)
  })

  app.delete('/api/passkeys/:id', { schema: { ...security, params: idParams }, config: auditAs('passkey-remove', passkeyNumber) }, async (request) => {
    const { id } = request.params
    if (!(await store.deletePasskey(id))) throw new HttpError(404, T.passkeyNotFound)
    log.info({ passkey: id }, 'console: passkey removed')
    return securityPage(request)
  })

  // Starting the setup changes nothing that signs anyone in; confirming it does.
  const setup = { schema: { response: { 200: secondFactorSetupSchema } }, config: { audit: null } }
  app.post('/api/second-factor/setup', setup, async (): Promise<SecondFactorSetup> => {
    const secret = newTotpSecret()
    if (!(await store.startTotp(sealedTotpSecret(config, secret), Date.now()))) throw new HttpError(409, T.secondFactorOn)
    const uri = totpUri(secret)
    return { secret, uri, qr: qrPath(uri) }
  })

  app.post(
    '/api/second-factor/confirm',
    { schema: { body: orEmpty(codeBody), response: { 200: secondFactorConfirmedSchema } }, config: { audit: 'second-factor-on' } },
    async (request): Promise<SecondFactorConfirmed> => {
      const { code } = request.body
      const totp = await store.totp()
      if (!totp || totp.confirmedAt !== null) throw new HttpError(409, T.secondFactorNotStarted)
      const step = totpStepOf(openedTotpSecret(config, totp.secret), code.replace(/\s/g, ''), Date.now())
      if (step === null) throw new HttpError(400, T.setupCodeWrong)
      const recoveryCodes = newRecoveryCodes()
      if (!(await store.confirmTotp(totp.secret, step, recoveryCodes.map(recoveryCodeHash), Date.now(), currentHash(request)))) {
        throw new HttpError(409, T.setupRestarted)
      }
      log.info('console: second factor switched on; every other session has ended')
      return { recoveryCodes }
    },
  )

  const disable = { schema: { body: orEmpty(codeBody), response: { 200: signedOutSchema } }, config: { audit: 'second-factor-off' } } as const
  app.post('/api/second-factor/disable', disable, async (request) => {
    const { code } = request.body
    const totp = await store.totp()
    if (!totp || totp.confirmedAt === null) throw new HttpError(409, T.secondFactorOff)
    // Only with a code: a session left open on someone's desk does not switch it off.
    const step = totpStepOf(openedTotpSecret(config, totp.secret), code.replace(/\s/g, ''), Date.now())
    const passed = step !== null ? await store.useTotpStep(step) : await store.useRecoveryCode(recoveryCodeHash(code), Date.now())
    if (!passed) throw new HttpError(400, T.codeWrong)
    await store.resetSecondFactor()
    log.info('console: second factor switched off')
    // resetSecondFactor ended every session, this one too.
    return { signedOut: true } as const
  })

  app.get(SIGN_IN_PATHS.sessions, page, async (request, reply) => sendPage(reply, renderer, { page: 'sessions', data: await sessionsPage(request) }))
  app.get('/api/sessions', { schema: sessions }, async (request) => sessionsPage(request))

  app.delete('/api/sessions/:ref', { schema: { ...sessions, params: refParams }, config: { audit: 'session-end' } }, async (request, reply) => {
    const { ref } = request.params
    const sessions = await store.listSessions(Date.now(), SESSION_IDLE_MS, SESSION_MAX_MS)
    const session = sessions.find((candidate) => refOf(candidate.idHash) === ref)
    if (!session) throw new HttpError(404, T.sessionNotFound)
    await store.deleteSession(session.idHash)
    log.info('console: a session was signed out from the sessions page')
    if (session.idHash === currentHash(request)) clearSessionCookie(request, reply)
    return sessionsPage(request)
  })

  // 204: no body.
  app.delete('/api/sessions', { schema: { response: { 204: z.undefined() } }, config: { audit: 'sessions-end-all' } }, async (request, reply) => {
    await store.deleteAllSessions()
    log.info('console: every session was signed out')
    return clearSessionCookie(request, reply).code(204).send()
  })
}
