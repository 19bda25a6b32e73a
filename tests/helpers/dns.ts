// A real DNS server on 127.0.0.1 (dns2, pure JavaScript) that answers TXT queries from a zone the test gives it, and
// a reader of zone-file TXT lines (RFC 1035, 5.1), so `dns --format zone` output can be served back.
import dns2 from 'dns2'

const { Packet } = dns2

export interface ZoneRecord {
  owner: string
  ttl: number
  /** One TXT record: its character-strings as raw octets. */
  strings: Buffer[]
}

/** An address or an alias, for the names whose target the daily checks look up. */
export interface TargetRecord {
  owner: string
  ttl: number
  type: 'A' | 'AAAA' | 'CNAME'
  /** The address (A, AAAA) or the alias's target (CNAME). */
  data: string
}

/** The octets of one zone-file character-string: `\X` is X, `\DDD` the octet DDD. */
function unescapeCharacterString(text: string): Buffer {
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'))
      continue
    }
    const digits = /^\d{3}/.exec(text.slice(i + 1))
    if (digits) {
      const octet = Number(digits[0])
      if (octet > 255) throw new Error(`\\${digits[0]} is not an octet`)
      bytes.push(octet)
      i += 3
    } else {
      if (i + 1 >= text.length) throw new Error('a character-string ends in a lone backslash')
      bytes.push(...Buffer.from(text[++i]!, 'utf8'))
    }
  }
  return Buffer.from(bytes)
}

/** The TXT lines of a zone file (`owner ttl IN TXT "…" ["…"]`); comments and blank lines are skipped, others refused. */
export function parseZoneTxt(zone: string): ZoneRecord[] {
  const records: ZoneRecord[] = []
  for (const line of zone.split('\n')) {
    if (/^\s*(;.*)?$/.test(line)) continue
    const match = /^(\S+)\s+(\d+)\s+IN\s+TXT\s+((?:"(?:[^"\\]|\\.)*"\s*)+)$/.exec(line)
    if (!match) throw new Error(`not a TXT line of a zone file: ${line}`)
    const strings = [...match[3]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescapeCharacterString(m[1]!))
    records.push({ owner: match[1]!, ttl: Number(match[2]), strings })
  }
  return records
}

export interface DnsServer {
  /** "127.0.0.1:PORT", for --resolver. */
  address: string
  close(): Promise<void>
}

const key = (name: string) => name.toLowerCase().replace(/\.$/, '')

const isTarget = (record: ZoneRecord | TargetRecord): record is TargetRecord => 'type' in record

/**
 * Answers TXT queries for the names in `zone` (owner names with or without the final dot), and A, AAAA and CNAME
 * queries for its target records (a CNAME answers every type, as a resolver expects), NXDOMAIN for every other name.
 * UDP and TCP listen on the same port, as a resolver given IP:PORT expects (a long answer is retried over TCP).
 */
export async function startDnsServer(zone: (ZoneRecord | TargetRecord)[]): Promise<DnsServer> {
  const byName = new Map<string, (ZoneRecord | TargetRecord)[]>()
  for (const record of zone) byName.set(key(record.owner), [...(byName.get(key(record.owner)) ?? []), record])
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request)
    const [question] = request.questions
    const found = question ? byName.get(key(question.name)) : undefined
    if (!question || !found) response.header.rcode = 3
    else {
      for (const record of found) {
        const base = { name: question.name, class: Packet.CLASS.IN, ttl: record.ttl }
        if (!isTarget(record)) {
          if (question.type === Packet.TYPE.TXT) response.answers.push({ ...base, type: Packet.TYPE.TXT, data: record.strings } as never)
        } else if (record.type === 'CNAME') response.answers.push({ ...base, type: Packet.TYPE.CNAME, domain: record.data } as never)
        else if (question.type === Packet.TYPE[record.type]) response.answers.push({ ...base, type: Packet.TYPE[record.type], address: record.data } as never)
      }
    }
    void send(response)
  }
  // UDP and TCP on one port number: the UDP port is free, but its number may be taken for TCP (by a connection's own
  // port, or another test's server); then both try again on a new number.
  for (let attempt = 1; ; attempt++) {
    const udp = dns2.createUDPServer(handle)
    await udp.listen(0, '127.0.0.1')
    const { port } = udp.address()
    const tcp = dns2.createTCPServer(handle)
    try {
      await new Promise<void>((resolve, reject) => tcp.once('error', reject).listen(port, '127.0.0.1', resolve))
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()))
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 20) continue
      throw error
    }
    return serverOf(udp, tcp, port)
  }
}

function serverOf(udp: ReturnType<typeof dns2.createUDPServer>, tcp: ReturnType<typeof dns2.createTCPServer>, port: number): DnsServer {
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      Promise.all([new Promise<void>((resolve) => udp.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]).then(
        () => undefined,
      ),
  }
}
