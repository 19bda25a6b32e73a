import { textsOf } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'

/** Impressum and Datenschutz, when the owner has them; empty otherwise, as the original page's footer was. */
export function Footer({ legal, language }: Pick<PageProps, 'legal' | 'language'>) {
  const text = textsOf(language)
  return (
    <footer className="footer">
      {legal?.imprintHref && <a href={legal.imprintHref}>{text.imprint}</a>}
      {legal?.privacyHref && <a href={legal.privacyHref}>{text.privacy}</a>}
    </footer>
  )
}
