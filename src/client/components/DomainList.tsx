// GET /domains: every name of the portfolio, searched and sorted by links and a GET form, so it works without script.
import { LOCALE } from '../../shared/language.ts'
import { textsOf } from '../../shared/texts.ts'
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
  const text = textsOf(props.language)
  const active = props.sort === sort
  const order = active && props.order === 'asc' ? 'desc' : 'asc'
  return (
    <th scope="col" aria-sort={active ? (props.order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a href={hrefOf(props, { sort, order })}>
        {label}
        {active && (
          <span className="sort-mark" aria-hidden="true">
            {props.order === 'asc' ? ' ▲' : ' ▼'}
          </span>
        )}
        {active && <span className="visually-hidden">{`, ${props.order === 'asc' ? text.domainListSortedUp : text.domainListSortedDown}`}</span>}
      </a>
    </th>
  )
}

export function DomainList(props: DomainListProps) {
  const text = textsOf(props.language)
  const count = (n: number) => n.toLocaleString(LOCALE[props.language])
  return (
    <>
      <main className="page domain-list">
        <h1>{text.domainListTitle}</h1>
        <form className="search" method="get" action="/domains" role="search">
          <label htmlFor="domain-search">{text.domainListSearch}</label>
          <div className="search-row">
            <input id="domain-search" type="search" name="q" defaultValue={props.q} maxLength={100} autoComplete="off" />
            {props.sort !== 'name' && <input type="hidden" name="sort" value={props.sort} />}
            {props.order !== 'asc' && <input type="hidden" name="order" value={props.order} />}
            <button type="submit">{text.domainListSubmit}</button>
          </div>
        </form>
        <p className="list-count" role="status">
          {props.q ? text.domainListFound(count(props.total), props.q) : text.domainListCount(count(props.total))}
        </p>
        {props.items.length === 0 ? (
          <p>{text.domainListEmpty}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <SortLink props={props} sort="name" label={text.domainListName} />
                <SortLink props={props} sort="price" label={text.domainListPrice} />
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
          <nav className="pages" aria-label={text.domainListPages}>
            {props.page > 1 && (
              <a href={hrefOf(props, { page: props.page - 1 })} rel="prev">
                {text.domainListPrevious}
              </a>
            )}
            <span>{text.domainListPage(count(props.page), count(props.pages))}</span>
            {props.page < props.pages && (
              <a href={hrefOf(props, { page: props.page + 1 })} rel="next">
                {text.domainListNext}
              </a>
            )}
          </nav>
        )}
        <p>
          <a href="/">{text.backHome}</a>
        </p>
      </main>
      <Footer legal={props.legal} language={props.language} />
    </>
  )
}
