// Which connection is in the middle of being answered. Closing the server waits for every connection that has
// started a request, even one that sent half a request and nothing since; such a connection would hold a shutdown
// until requestTimeout. At shutdown, only the connections whose request arrived whole are left to finish.
import type { IncomingMessage, Server } from 'node:http'
import type { Socket } from 'node:net'

export interface ConnectionTracker {
  /** Ends every connection that is not being answered: idle, or with a request that has not arrived whole. */
  closeUnanswered(): void
}

export function trackConnections(server: Server): ConnectionTracker {
  const sockets = new Set<Socket>()
  // The request each connection is on, from its head until its answer is sent (one at a time, also when pipelined).
  const current = new Map<Socket, IncomingMessage>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => {
      sockets.delete(socket)
      current.delete(socket)
    })
  })
  server.on('request', (request: IncomingMessage, response) => {
    const { socket } = request
    current.set(socket, request)
    response.once('close', () => {
      if (current.get(socket) === request) current.delete(socket)
    })
  })
  return {
    closeUnanswered() {
      for (const socket of sockets) {
        // `complete`: the whole body is in; a route answers it (or answers 503 while closing).
        if (!current.get(socket)?.complete) socket.destroy()
      }
    },
  }
}
