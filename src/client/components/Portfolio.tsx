import type { Language } from '../../shared/language.ts'
import { textsOf } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'

/** "Weitere Domains": the owner's other names most like this one, each a link to its own page, and the whole list. */
export function Portfolio({ names, language }: NonNullable<PageProps['portfolio']> & { language: Language }) {
  const text = textsOf(language)
  return (
    <section className="portfolio" aria-labelledby="portfolio-heading">
      <h2 id="portfolio-heading">{text.portfolio}</h2>
      {names.length > 0 && (
        <ul className="portfolio-names">
          {names.map((name) => (
            <li key={name.href}>
              <a href={name.href}>{name.name}</a>
              {name.price && <span className="portfolio-price">{name.price}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="portfolio-all">
        <a href="/domains">{text.portfolioAll}</a>
      </p>
    </section>
  )
}
