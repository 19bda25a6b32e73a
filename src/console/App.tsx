// The console: one component per page, chosen by the state the server rendered.
import { useEffect } from 'react'
import type { ConsoleState } from '../shared/console-api.ts'
import { Layout } from './Layout.tsx'
import { AuditPageView } from './pages/Audit.tsx'
import { BankStatementPage } from './pages/BankStatement.tsx'
import { DomainsPage } from './pages/Domains.tsx'
import { ImportPage } from './pages/Import.tsx'
import { Inbox } from './pages/Inbox.tsx'
import { InquiryPage } from './pages/Inquiry.tsx'
import { NotFound } from './pages/NotFound.tsx'
import { Outbox } from './pages/Outbox.tsx'
import { OverviewPage } from './pages/Overview.tsx'
import { Privacy } from './pages/Privacy.tsx'
import { SalesPage } from './pages/Sales.tsx'
import { SecurityPage } from './pages/Security.tsx'
import { SessionsPage } from './pages/Sessions.tsx'
import { Setup } from './pages/Setup.tsx'
import { SignIn } from './pages/SignIn.tsx'
import { TemplatesPage } from './pages/Templates.tsx'

export interface AppProps {
  state: ConsoleState
  /** The server's clock when it rendered the page (ms). */
  now: number
}

export function ConsoleApp({ state, now }: AppProps) {
  // Says that the page answers to the keyboard and its buttons now (the browser tests wait for it).
  useEffect(() => document.documentElement.setAttribute('data-hydrated', ''), [])
  return <Page state={state} now={now} />
}

function Page({ state, now }: AppProps) {
  switch (state.page) {
    case 'setup':
      return <Setup />
    case 'signin':
      return <SignIn error={state.error} passkey={state.passkey} />
    case 'security':
      return (
        <Layout current="security">
          <SecurityPage initial={state.data} />
        </Layout>
      )
    case 'sessions':
      return (
        <Layout current="sessions">
          <SessionsPage initial={state.data} />
        </Layout>
      )
    case 'inbox':
      return (
        <Layout current="inbox">
          <Inbox query={state.query} data={state.data} now={now} />
        </Layout>
      )
    case 'inquiry':
      return (
        <Layout current="inbox">
          <InquiryPage initial={state.data} />
        </Layout>
      )
    case 'outbox':
      return (
        <Layout current="outbox">
          <Outbox initial={state.data} />
        </Layout>
      )
    case 'overview':
      return (
        <Layout current="overview">
          <OverviewPage data={state.data} />
        </Layout>
      )
    case 'templates':
      return (
        <Layout current="templates">
          <TemplatesPage initial={state.data} />
        </Layout>
      )
    case 'sales':
      return (
        <Layout current="sales">
          <SalesPage initial={state.data} />
        </Layout>
      )
    case 'privacy':
      return (
        <Layout current="privacy">
          <Privacy />
        </Layout>
      )
    case 'import':
      return (
        <Layout current="import">
          <ImportPage data={state.data} />
        </Layout>
      )
    case 'domains':
      return (
        <Layout current="domains">
          <DomainsPage data={state.data} />
        </Layout>
      )
    case 'bank-statement':
      return (
        <Layout current="sales">
          <BankStatementPage data={state.data} />
        </Layout>
      )
    case 'audit':
      return (
        <Layout current="audit">
          <AuditPageView data={state.data} />
        </Layout>
      )
    case 'not-found':
      return <NotFound />
  }
}
