// A hostile TCP server on loopback: it accepts, announces a long answer and then sends it one byte every 100 ms,
// forever, so that a client's idle timeout never fires. The first `stall` connections get that; later ones are passed
// on to `forwardTo` (a real server), so that a test can stall one exchange and let the next ones through.
import net from 'node:net'

export interface DripServer {
  host: string
  port: number
  /** Connections accepted so far. */
  accepted: number
  /** How long each stalled connection lasted until the client closed it, in order (ms). */
  closedAfterMs: number[]
  /** Stalled connections the client has not closed yet. */
  open: number
  close(): Promise<void>
}

export async function startDripServer(options: { stall?: number; forwardTo?: { host: string; port: number } } = {}): Promise<DripServer> {
  const stall = options.stall ?? Infinity
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    drip.accepted++
    if (drip.accepted > stall && options.forwardTo) {
      const upstream = net.connect(options.forwardTo)
      upstream.on('error', () => socket.destroy())
      socket.on('close', () => upstream.destroy())
      upstream.on('close', () => socket.destroy())
      socket.pipe(upstream).pipe(socket)
      return
    }
    const since = Date.now()
    drip.open++
    // A DNS-over-TCP length of 65535 octets, then the octets one by one.
    socket.write(Buffer.from([0xff, 0xff]))
    const timer = setInterval(() => socket.write(Buffer.from([0])), 100)
    socket.on('close', () => {
      clearInterval(timer)
      drip.open--
      drip.closedAfterMs.push(Date.now() - since)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const drip: DripServer = {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    accepted: 0,
    closedAfterMs: [],
    open: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return drip
}
