import { TEXTS } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'
import { ContactForm } from './ContactForm.tsx'

export function LandingPage(props: PageProps) {
  const text = TEXTS[props.language]
  return (
    <>
      <main className="page">
        <header className="intro">
          <h2 className="kicker">{text.interested}</h2>
          <h1 className="domain">{props.host}</h1>
          <p className="for-sale">{text.forSale(props.host)}</p>
          {props.listing?.price && <p className="price">{text.price(props.listing.price)}</p>}
          {props.listing?.description && <p className="description">{props.listing.description}</p>}
          {props.saleStatus === 'reserved' && <p className="sale-status">{text.reserved}</p>}
          {props.saleStatus === 'sold' && <p className="sale-status">{text.sold}</p>}
        </header>
        {props.saleStatus !== 'sold' && (
          <section className="card" aria-labelledby="contact-heading">
            <h2 id="contact-heading">{text.writeUs}</h2>
            {props.saleStatus === 'reserved' && <p className="sale-note">{text.reservedBackup}</p>}
            <ContactForm token={props.token} hash={props.hash} outcome={props.outcome} values={props.values} offer={props.offer} verify={props.verify} language={props.language} />
            {props.legal?.privacyHref && (
              <p className="privacy-note">
                {text.privacyNote} <a href={props.legal.privacyHref}>{text.privacyNoteLink}</a>.
              </p>
            )}
          </section>
        )}
      </main>
      <footer className="footer">
        {props.legal?.imprintHref && <a href={props.legal.imprintHref}>{text.imprint}</a>}
        {props.legal?.privacyHref && <a href={props.legal.privacyHref}>{text.privacy}</a>}
      </footer>
    </>
  )
}
