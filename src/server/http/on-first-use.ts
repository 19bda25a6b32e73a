// A route's handlers from a module of their own, loaded by the first request that needs them (decision 063). The
// route itself (path, schemas, limits, hooks, error handler) is registered at start as before, since Fastify adds
// no route once listening; only the handlers' code waits. So the first page of a start is answered before the deal
// page's or the checkout's modules are even read, and a process that never sells through them never loads them.
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      // A load that failed (a file missing from a broken install) fails that request, not every later one.
      loading = undefined
      throw error
    }))
}
