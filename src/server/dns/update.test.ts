// The update messages against a real authoritative server (Knot DNS on loopback, tests/helpers/knot.ts).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startKnot, type KnotServer } from '../../../tests/helpers/knot.ts'
import { assertForSaleOwner, buildUpdate, judgeResponse, sendUpdate, type UpdateServer } from './update.ts'

const ZONE = `@ A 192.0.2.1
www A 192.0.2.2
@ TXT "v=spf1 -all"
_dmarc TXT "v=DMARC1; p=reject"
shop A 192.0.2.3
`

let knot: KnotServer
let server: UpdateServer

beforeAll(async () => {
  knot = await startKnot({ zones: { 'example.test': ZONE } })
  server = { host: knot.host, port: knot.port, key: { name: knot.keyName, secret: Buffer.from(knot.secret, 'base64') }, timeoutMs: 5000 }
})
afterAll(() => knot?.close())

const others = () => knot.zone('example.test').filter((line) => !line.startsWith('_for-sale.'))

test('an update signed with the key writes the records, and the next one replaces them', async () => {
  const before = others()
  const first = buildUpdate(
    'example.test',
    [{ ascii: 'example.test', records: ['v=FORSALE1;furi=https://example.test/', 'v=FORSALE1;fval=EUR4900'] }],
    server.key,
    Date.now(),
  )
  expect(await sendUpdate(server, first)).toEqual({ status: 'sent' })
  expect(knot.txt('_for-sale.example.test')).toEqual(['"v=FORSALE1;furi=https://example.test/"', '"v=FORSALE1;fval=EUR4900"'])
  const second = buildUpdate(
    'example.test',
    [{ ascii: 'example.test', records: ['v=FORSALE1;furi=https://example.test/', 'v=FORSALE1;fval=EUR3900'] }],
    server.key,
    Date.now(),
  )
  expect(await sendUpdate(server, second)).toEqual({ status: 'sent' })
  expect(knot.txt('_for-sale.example.test')).toEqual(['"v=FORSALE1;furi=https://example.test/"', '"v=FORSALE1;fval=EUR3900"'])
  expect(others()).toEqual(before)
})

test('a wrong key is refused and changes nothing', async () => {
  const before = knot.zone('example.test')
  const wrong = { ...server, key: { ...server.key, secret: Buffer.alloc(32, 7) } }
  const result = await sendUpdate(
    wrong,
    buildUpdate('example.test', [{ ascii: 'shop.example.test', records: ['v=FORSALE1;fval=EUR1'] }], wrong.key, Date.now()),
  )
  expect(result).toEqual({ status: 'failed', error: expect.stringMatching(/^the DNS server answered NOTAUTH \(BADSIG\)/) })
  expect(knot.zone('example.test')).toEqual(before)
})

test('only _for-sale names inside the zone can be written', () => {
  expect(assertForSaleOwner('shop.example.test', 'example.test')).toBe('_for-sale.shop.example.test')
  for (const name of ['example.org', 'www.example.org', '*.example.test', 'a b.example.test', 'x\\.example.test', '', 'example.test.evil']) {
    expect(() => buildUpdate('example.test', [{ ascii: name, records: [] }], server.key, Date.now())).toThrow(/refusing to update/)
  }
})

test('a server that is down is worth trying again', async () => {
  await knot.stop()
  try {
    const result = await sendUpdate(server, buildUpdate('example.test', [{ ascii: 'example.test', records: [] }], server.key, Date.now()))
    expect(result).toEqual({ status: 'retry', error: 'the DNS server cannot be reached (ECONNREFUSED)' })
  } finally {
    await knot.start()
  }
})

test('an answer that is not signed with the key is not taken for a success', () => {
  const request = buildUpdate('example.test', [{ ascii: 'example.test', records: [] }], server.key, Date.now(), 4242)
  // NOERROR for the right id, as anyone on the path could send it: header only, no TSIG.
  const forged = Buffer.from([0x10, 0x92, 0xa8, 0x00, 0, 0, 0, 0, 0, 0, 0, 0])
  expect(judgeResponse(forged, request, server.key, Date.now())).toEqual({ status: 'retry', error: 'the answer is not signed with the key' })
  // The update itself, sent back as its "answer", carries the request's MAC, not one over the answer.
  const echoed = Buffer.from(request.message)
  echoed.writeUInt16BE(echoed.readUInt16BE(2) | 0x8000, 2)
  expect(judgeResponse(echoed, request, server.key, Date.now())).toEqual({ status: 'retry', error: 'the answer is not signed with the key' })
})
