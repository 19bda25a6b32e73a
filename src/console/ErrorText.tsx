import type { ReactNode } from 'react'

/** An error the server (or the network) reported, read out by screen readers when it appears. */
export function ErrorText({ children }: { children: ReactNode }) {
  return (
    <p className="error" role="alert">
      {children}
    </p>
  )
}
