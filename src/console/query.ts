import type { InboxQuery } from '../shared/console-api.ts'

const FILTERS = ['domain', 'status', 'since', 'until', 'q'] as const

/** The inbox filters as a query string (no cursor), for the API, the export links and "Weitere laden". */
export function filterParams(query: InboxQuery): URLSearchParams {
  const params = new URLSearchParams()
  for (const name of FILTERS) {
    const value = query[name]
    if (value) params.set(name, value)
  }
  return params
}

export function withParams(path: string, params: URLSearchParams): string {
  const text = params.toString()
  return text ? `${path}?${text}` : path
}
