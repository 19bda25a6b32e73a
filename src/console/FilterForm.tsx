// The filters above a list (Posteingang, Protokoll): a GET form to the page itself, so that it works without script
// and its address can be kept; with script only the fields that are set go into the address. "Filtern" and
// "Zurücksetzen" end it.
import type { FormEvent, ReactNode } from 'react'
import { go } from './api.ts'
import { withParams } from './query.ts'

export function FilterForm({ path, children }: { path: string; children: ReactNode }) {
  function applyFilters(event: FormEvent<HTMLFormElement>) {
    // Without script the form sends every field, empty ones too; with it the address keeps only what is set.
    event.preventDefault()
    const params = new URLSearchParams()
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === 'string' && value.trim()) params.set(name, value.trim())
    }
    go(withParams(path, params))
  }
  return (
    <form className="filters" method="get" action={path} role="search" onSubmit={applyFilters}>
      {children}
      <div className="filter-actions">
        <button type="submit" className="button">
          Filtern
        </button>
        <a href={path}>Zurücksetzen</a>
      </div>
    </form>
  )
}

/** "von" and "bis": the days (YYYY-MM-DD, Europe/Berlin) of the query's since and until. */
export function DayRangeFields({ idPrefix, since, until }: { idPrefix: string; since: string | undefined; until: string | undefined }) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-since`}>von</label>
        <input id={`${idPrefix}-since`} name="since" type="date" defaultValue={since ?? ''} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-until`}>bis</label>
        <input id={`${idPrefix}-until`} name="until" type="date" defaultValue={until ?? ''} />
      </div>
    </>
  )
}
