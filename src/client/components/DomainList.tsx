// GET /domains: every name of the portfolio, searched and sorted by links and a GET form, so it works without script.
import { TEXT } from '../../shared/texts.ts'
import type { DomainListProps } from '../page-props.ts'
import { Footer } from './Footer.tsx'

type Sort = DomainListProps['sort']

function hrefOf(props: DomainListProps, change: Partial<Pick<DomainListProps, 'sort' | 'order' | 'page'>>): string {
  const { q, sort, order, page } = { ...props, page: 1, ...change }
  const params = new URLSearchParams()
  if (q) params.set('q', q)
  if (sort !== 'name') params.set('sort', sort)
  if (order !== 'asc') params.set('order', order)
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return query ? `/domains?${query}` : '/domains'
}

/** A column's heading: a link that sorts by it, ascending first, and the other way round when it already does. */
function SortLink({ props, sort, label }: { props: DomainListProps; sort: Sort; label: string }) {
  const active = props.sort === sort
  const order = active && props.order === 'asc' ? 'desc' : 'asc'
  return (
    <th scope="col" aria-sort={active ? (props.order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a href={hrefOf(props, { sort, order })}>
        {label}
        {active && <span className="sort-mark" aria-hidden="true">{props.order === 'asc' ? ' ▲' : ' ▼'}</span>}
        {active && <span className="visually-hidden">{`, ${props.order === 'asc' ? TEXT.domainListSortedUp : TEXT.domainListSortedDown}`}</span>}
      </a>
    </th>
  )
}

const count = (total: number) => total.toLocaleString('de-DE')

export function DomainList(props: DomainListProps) {
  return (
    <>
      <main className="page domain-list">
        <h1>{TEXT.domainListTitle}</h1>
        <form className="search" method="get" action="/domains" role="search">
          <label htmlFor="domain-search">{TEXT.domainListSearch}</label>
          <div className="search-row">
            <input id="domain-search" type="search" name="q" defaultValue={props.q} maxLength={100} autoComplete="off" />
            {props.sort !== 'name' && <input type="hidden" name="sort" value={props.sort} />}
            {props.order !== 'asc' && <input type="hidden" name="order" value={props.order} />}
            <button type="submit">{TEXT.domainListSubmit}</button>
          </div>
        </form>
        <p className="list-count" role="status">
          {props.q ? TEXT.domainListFound(count(props.total), props.q) : TEXT.domainListCount(count(props.total))}
        </p>
        {props.items.length === 0 ? (
          <p>{TEXT.domainListEmpty}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <SortLink props={props} sort="name" label={TEXT.domainListName} />
                <SortLink props={props} sort="price" label={TEXT.domainListPrice} />
              </tr>
            </thead>
            <tbody>
              {props.items.map((item) => (
                <tr key={item.href}>
                  <td>
                    <a href={item.href}>{item.name}</a>
                  </td>
                  <td>{item.price ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {props.pages > 1 && (
          <nav className="pages" aria-label={TEXT.domainListPages}>
            {props.page > 1 && (
              <a href={hrefOf(props, { page: props.page - 1 })} rel="prev">
                {TEXT.domainListPrevious}
              </a>
            )}
            <span>{TEXT.domainListPage(props.page, props.pages)}</span>
            {props.page < props.pages && (
              <a href={hrefOf(props, { page: props.page + 1 })} rel="next">
                {TEXT.domainListNext}
              </a>
            )}
          </nav>
        )}
        <p>
          <a href="/">{TEXT.backHome}</a>
        </p>
      </main>
      <Footer legal={props.legal} />
    </>
  )
}
