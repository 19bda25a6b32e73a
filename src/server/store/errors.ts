// The store's errors: what a caller tells apart (a 503 with Retry-After, an invoice whose bytes are not handed out).

/** Thrown when the store cannot take a write now (disk full, locked): the client is told to retry, never "ok". */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
}

/**
 * Thrown when an invoice's stored PDF does not have the stored SHA-256 (decision 038): the bytes were changed or
 * swapped outside the server. Its bytes are handed to no one (a 500, a failed CLI command, a mail held back) until
 * the invoice is restored from a backup.
 */
export class InvoiceHashMismatchError extends Error {
  override name = 'InvoiceHashMismatchError'
  /** The invoice's number in the gapless sequence. */
  readonly invoice: number
  constructor(invoice: number, detail: string) {
    super(`invoice ${invoice}: hash mismatch, ${detail}; its bytes are not handed out (restore the invoice from a backup)`)
    this.invoice = invoice
  }
}

/** Wraps work so that a failure `isTransient` calls "not now" becomes StoreUnavailableError (503 + Retry-After). */
export function guardBy(isTransient: (error: unknown) => boolean) {
  const unavailable = (error: unknown) => (isTransient(error) ? new StoreUnavailableError((error as Error).message, { cause: error }) : error)
  return {
    sync<T>(work: () => T): T {
      try {
        return work()
      } catch (error) {
        throw unavailable(error)
      }
    },
    async async<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work()
      } catch (error) {
        throw unavailable(error)
      }
    },
  }
}
