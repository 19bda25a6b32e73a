// A passkey made in software, for tests that sign in with one without a browser: an ES256 key pair, a
// discoverable credential with user verification, its attestation "none" and its assertions as WebAuthn defines
// them (authenticator data, CBOR, COSE). Chromium's virtual authenticator (tests/e2e/console-passkeys.test.ts) is
// the real browser's; this one lets an in-process test (buildTestApp) use the routes as a browser would.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'

/** The few CBOR types WebAuthn's structures need: unsigned and negative integers, byte and text strings, maps. */
type Cbor = number | string | Buffer | Map<number | string, Cbor>

function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length])
    if (length < 256) return Buffer.from([(major << 5) | 24, length])
    const bytes = Buffer.alloc(3)
    bytes[0] = (major << 5) | 25
    bytes.writeUInt16BE(length, 1)
    return bytes
  }
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value])
  const entries = [...value].flatMap(([key, item]) => [cbor(key), cbor(item)])
  return Buffer.concat([head(5, value.size), ...entries])
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest()
const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

/** User present and user verified; with attested credential data when the credential is being made. */
const FLAGS = { UP: 0x01, UV: 0x04, AT: 0x40 }

export interface SoftwarePasskey {
  /** The body of `POST /api/passkeys` (its `response`) for the registration options' challenge. */
  register(challenge: string): object
  /** The body of `POST /api/session/passkey` (its `response`) for the sign-in options' challenge. */
  assert(challenge: string): object
}

/** A passkey of the relying party `rpId`, used from `origin` (the console as the browser names it). */
export function softwarePasskey(rpId: string, origin: string): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const credentialId = randomBytes(16)
  const userHandle = Buffer.from('domain-lander-owner')
  let counter = 0
  const authenticatorData = (flags: number, attested?: Buffer) => {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(++counter)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])])
  }
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

  return {
    register(challenge) {
      // COSE_Key of an EC2 key on P-256 for ES256: kty 2, alg -7, crv 1, x, y.
      const coseKey = cbor(
        new Map<number, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      )
      const length = Buffer.alloc(2)
      length.writeUInt16BE(credentialId.length)
      const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, coseKey])
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authenticatorData(FLAGS.UP | FLAGS.UV | FLAGS.AT, attested)],
        ]),
      )
      return {
        id: base64url(credentialId),
        rawId: base64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: base64url(clientData('webauthn.create', challenge)),
          attestationObject: base64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      }
    },
    assert(challenge) {
      const data = authenticatorData(FLAGS.UP | FLAGS.UV)
      const client = clientData('webauthn.get', challenge)
      // ES256 over the authenticator data and the hash of the client data; Node signs EC keys in DER, as WebAuthn wants.
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey)
      return {
        id: base64url(credentialId),
        rawId: base64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: base64url(client),
          authenticatorData: base64url(data),
          signature: base64url(signature),
          userHandle: base64url(userHandle),
        },
        clientExtensionResults: {},
      }
    },
  }
}
