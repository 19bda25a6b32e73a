// RFC 2136 dynamic updates of _for-sale TXT records, signed with TSIG (RFC 8945, HMAC-SHA256), sent over TCP.
// dns2 encodes and parses the messages; it knows no TSIG, so the MAC is computed here over the wire format
// (decision 045).
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import net from 'node:net'
import dns2 from 'dns2'
import { RECORD_TTL } from './for-sale.ts'

const { Packet } = dns2

const OPCODE_UPDATE = 5
const TYPE_SOA = 6
const TYPE_TXT = 16
const TYPE_TSIG = 250
const CLASS_IN = 1
const CLASS_ANY = 255
const TSIG_ALGORITHM = 'hmac-sha256.'
/** Seconds the server's clock may differ from ours (RFC 8945 recommends 300). */
const FUDGE = 300
const RCODE_NAMES: Record<number, string> = {
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  6: 'YXDOMAIN',
  7: 'YXRRSET',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
}
const TSIG_ERRORS: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' }
/** Answers worth asking again: the server may be able to later. Anything else needs the owner (key, zone, policy). */
const TEMPORARY_RCODES = new Set([2])

export interface TsigKey {
  /** The key's name as the server knows it, e.g. `lander-key.` */
  name: string
  secret: Buffer
}

export interface UpdateServer {
  host: string
  port: number
  key: TsigKey
  /**
   * The whole exchange, connect to the last byte of the answer (EXCHANGE_DEADLINE_MS unless given): a deadline, not
   * an idle timeout, which a server sending a byte now and then would keep resetting.
   */
  timeoutMs?: number
}

/**
 * One update is one message and one short answer: any working DNS server is done within a second. 10 s leaves room
 * for a slow link and a busy server, and ends an exchange that stalls before the next zone's update waits long.
 */
const EXCHANGE_DEADLINE_MS = 10_000

/** The records one owner name should hold after the update: none deletes them. */
export interface NameRecords {
  /** The domain in ASCII, without the final dot; its records live at `_for-sale.<ascii>.` */
  ascii: string
  records: string[]
}

export type UpdateResult = { status: 'sent' } | { status: 'retry'; error: string } | { status: 'failed'; error: string }

const lower = (name: string) => name.toLowerCase().replace(/\.$/, '')

/** Whether `name` is `zone` or below it, by whole labels. */
export function inZone(name: string, zone: string): boolean {
  const n = lower(name)
  const z = lower(zone)
  return z === '' || n === z || n.endsWith(`.${z}`)
}

/**
 * The one rule that keeps an update to its records: every name it writes is `_for-sale.<domain>` inside the zone,
 * the domain a plain host name (LDH labels, so no wildcard, no second `_for-sale`, no escape), and only TXT.
 */
export function assertForSaleOwner(ascii: string, zone: string): string {
  const labels = ascii.split('.')
  if (!labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) || !inZone(ascii, zone)) {
    throw new Error(`refusing to update "${ascii}": not a host name inside the zone ${lower(zone)}`)
  }
  return `_for-sale.${ascii}`
}

/** A domain name in uncompressed, lower-case wire format (RFC 4034 6.2), as TSIG's MAC covers it. */
function canonicalName(name: string): Buffer {
  const labels = lower(name).split('.').filter(Boolean)
  return Buffer.concat([...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])), Buffer.from([0])])
}

const u16 = (value: number) => {
  const buffer = Buffer.alloc(2)
  buffer.writeUInt16BE(value)
  return buffer
}
const u48 = (value: number) => {
  const buffer = Buffer.alloc(6)
  buffer.writeUIntBE(value, 0, 6)
  return buffer
}

/** The TSIG variables after the message in the MAC's input (RFC 8945 4.3.3). */
function tsigVariables(keyName: string, timeSigned: number, error: number, other: Buffer): Buffer {
  return Buffer.concat([
    canonicalName(keyName),
    u16(CLASS_ANY),
    Buffer.alloc(4),
    canonicalName(TSIG_ALGORITHM),
    u48(timeSigned),
    u16(FUDGE),
    u16(error),
    u16(other.length),
    other,
  ])
}

function tsigRecord(keyName: string, timeSigned: number, mac: Buffer, originalId: number): Buffer {
  const rdata = Buffer.concat([canonicalName(TSIG_ALGORITHM), u48(timeSigned), u16(FUDGE), u16(mac.length), mac, u16(originalId), u16(0), u16(0)])
  return Buffer.concat([canonicalName(keyName), u16(TYPE_TSIG), u16(CLASS_ANY), Buffer.alloc(4), u16(rdata.length), rdata])
}

export interface SignedUpdate {
  id: number
  message: Buffer
  /** The request's MAC: the response's MAC covers it. */
  mac: Buffer
}

/**
 * One UPDATE for `zone`: for each name, its _for-sale TXT RRset is deleted and its records (if any) added, in one
 * message, which the server applies all or nothing (RFC 2136 3.4). Signed with the key at `now`.
 */
export function buildUpdate(zone: string, names: NameRecords[], key: TsigKey, now: number, id = randomInt(0x10000)): SignedUpdate {
  const updates: object[] = []
  for (const { ascii, records } of names) {
    const owner = assertForSaleOwner(ascii, zone)
    // Delete an RRset: class ANY, type TXT, TTL 0, no RDATA (RFC 2136 2.5.2).
    updates.push({ name: owner, type: TYPE_TXT, class: CLASS_ANY, ttl: 0, data: [] })
    for (const record of records) updates.push({ name: owner, type: TYPE_TXT, class: CLASS_IN, ttl: RECORD_TTL, data: [Buffer.from(record, 'utf8')] })
  }
  const packet = new Packet()
  Object.assign(packet.header, { id, opcode: OPCODE_UPDATE })
  // RFC 2136's sections reuse RFC 1035's: zone = question, prerequisites = answers (none), updates = authorities.
  packet.questions.push({ name: lower(zone), type: TYPE_SOA, class: CLASS_IN } as never)
  packet.authorities.push(...(updates as never[]))
  const unsigned = Buffer.from(packet.toBuffer())
  const timeSigned = Math.floor(now / 1000)
  const mac = createHmac('sha256', key.secret)
    .update(Buffer.concat([unsigned, tsigVariables(key.name, timeSigned, 0, Buffer.alloc(0))]))
    .digest()
  const message = Buffer.concat([unsigned, tsigRecord(key.name, timeSigned, mac, id)])
  message.writeUInt16BE(unsigned.readUInt16BE(10) + 1, 10)
  return { id, message, mac }
}

/** Skips a (possibly compressed) name and returns the offset after it. */
function skipName(message: Buffer, offset: number): number {
  for (;;) {
    const length = message.readUInt8(offset)
    if (length === 0) return offset + 1
    if ((length & 0xc0) === 0xc0) return offset + 2
    offset += 1 + length
  }
}

interface ReadTsig {
  /** Where the TSIG record starts: the MAC covers the message before it. */
  start: number
  timeSigned: number
  mac: Buffer
  originalId: number
  error: number
  other: Buffer
  keyName: string
}

/** The TSIG record at the end of a response, or null without one. */
function readTsig(message: Buffer): ReadTsig | null {
  const counts = [4, 6, 8, 10].map((at) => message.readUInt16BE(at))
  const [qd, an, ns, ar] = counts as [number, number, number, number]
  if (ar === 0) return null
  let offset = 12
  for (let i = 0; i < qd; i++) offset = skipName(message, offset) + 4
  for (let i = 0; i < an + ns + ar - 1; i++) {
    offset = skipName(message, offset) + 8
    offset += 2 + message.readUInt16BE(offset)
  }
  const start = offset
  const nameEnd = skipName(message, offset)
  if (message.readUInt16BE(nameEnd) !== TYPE_TSIG) return null
  const keyName = Packet.Name.decode(new Packet.Reader(message, start * 8) as never)
  let at = skipName(message, nameEnd + 10)
  const timeSigned = message.readUIntBE(at, 6)
  const macSize = message.readUInt16BE(at + 8)
  const mac = message.subarray(at + 10, at + 10 + macSize)
  at += 10 + macSize
  const otherLength = message.readUInt16BE(at + 4)
  return {
    start,
    timeSigned,
    mac,
    originalId: message.readUInt16BE(at),
    error: message.readUInt16BE(at + 2),
    other: message.subarray(at + 6, at + 6 + otherLength),
    keyName,
  }
}

/** Whether a response is the server's own answer to `request`, signed with the key (RFC 8945 5.3). */
function responseSigned(response: Buffer, tsig: ReadTsig, request: SignedUpdate, key: TsigKey, now: number): boolean {
  if (lower(tsig.keyName) !== lower(key.name) || tsig.mac.length !== 32) return false
  const unsigned = Buffer.from(response.subarray(0, tsig.start))
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10)
  unsigned.writeUInt16BE(tsig.originalId, 0)
  const expected = createHmac('sha256', key.secret)
    .update(Buffer.concat([u16(request.mac.length), request.mac, unsigned, tsigVariables(key.name, tsig.timeSigned, tsig.error, tsig.other)]))
    .digest()
  return timingSafeEqual(expected, tsig.mac) && Math.abs(now / 1000 - tsig.timeSigned) <= FUDGE
}

/** What the server's answer means for the update. */
export function judgeResponse(response: Buffer, request: SignedUpdate, key: TsigKey, now: number): UpdateResult {
  if (response.length < 12 || response.readUInt16BE(0) !== request.id) return { status: 'retry', error: 'the answer is not for this update' }
  const flags = response.readUInt16BE(2)
  const rcode = flags & 0x0f
  const tsig = readTsig(response)
  if (rcode !== 0) {
    const name = RCODE_NAMES[rcode] ?? `rcode ${rcode}`
    const tsigError = tsig && tsig.error ? ` (${TSIG_ERRORS[tsig.error] ?? `TSIG error ${tsig.error}`})` : ''
    const hint =
      rcode === 9
        ? ': the server does not accept the key (DNS_UPDATE_KEY_NAME, DNS_UPDATE_KEY_SECRET) or the clock is off'
        : rcode === 5
          ? ': the server does not allow this key to update these names'
          : rcode === 10
            ? ': the name is not in the zone'
            : ''
    const error = `the DNS server answered ${name}${tsigError}${hint}`
    return TEMPORARY_RCODES.has(rcode) ? { status: 'retry', error } : { status: 'failed', error }
  }
  // Only a signed NOERROR counts: an unsigned one could come from anyone on the path.
  if (!tsig || !responseSigned(response, tsig, request, key, now)) return { status: 'retry', error: 'the answer is not signed with the key' }
  return { status: 'sent' }
}

/**
 * Sends one update over TCP (RFC 7766: any size, no spoofed answers) and reads its one answer, within the deadline;
 * `signal` ends it sooner (a shutdown). Either way the connection is closed and the attempt counts as not sent.
 */
export function sendUpdate(server: UpdateServer, request: SignedUpdate, now: () => number = Date.now, signal?: AbortSignal): Promise<UpdateResult> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ status: 'retry', error: 'not sent: the server is shutting down' })
    const socket = net.connect({ host: server.host, port: server.port })
    let received = Buffer.alloc(0)
    let done = false
    const finish = (result: UpdateResult) => {
      if (done) return
      done = true
      clearTimeout(deadline)
      signal?.removeEventListener('abort', stopped)
      socket.destroy()
      resolve(result)
    }
    const deadline = setTimeout(() => finish({ status: 'retry', error: 'the DNS server did not answer in time' }), server.timeoutMs ?? EXCHANGE_DEADLINE_MS)
    const stopped = () => finish({ status: 'retry', error: 'cut off: the server is shutting down' })
    signal?.addEventListener('abort', stopped, { once: true })
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({ status: 'retry', error: `the DNS server cannot be reached (${error.code ?? error.message})` }),
    )
    socket.on('connect', () => socket.write(Buffer.concat([u16(request.message.length), request.message])))
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk])
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return
      const response = received.subarray(2, 2 + received.readUInt16BE(0))
      try {
        finish(judgeResponse(response, request, server.key, now()))
      } catch {
        finish({ status: 'retry', error: 'the DNS server sent an answer that cannot be read' })
      }
    })
    socket.on('end', () => finish({ status: 'retry', error: 'the DNS server closed the connection without an answer' }))
  })
}
