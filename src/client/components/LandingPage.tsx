import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'
import { ContactForm } from './ContactForm.tsx'

export function LandingPage(props: PageProps) {
  return (
    <>
      <main className="page">
        <header className="intro">
          <h2 className="kicker">{TEXT.interested}</h2>
          <h1 className="domain">{props.host}</h1>
          <p className="for-sale">{TEXT.forSale(props.host)}</p>
        </header>
        <section className="card" aria-labelledby="contact-heading">
          <h2 id="contact-heading">{TEXT.writeUs}</h2>
          <ContactForm token={props.token} hash={props.hash} outcome={props.outcome} values={props.values} />
        </section>
      </main>
      <footer className="footer"></footer>
    </>
  )
}
