import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'

/** Impressum and Datenschutz, when the owner has them; empty otherwise, as the original page's footer was. */
export function Footer({ legal }: Pick<PageProps, 'legal'>) {
  return (
    <footer className="footer">
      {legal?.imprintHref && <a href={legal.imprintHref}>{TEXT.imprint}</a>}
      {legal?.privacyHref && <a href={legal.privacyHref}>{TEXT.privacy}</a>}
    </footer>
  )
}
