// GET /kauf/…: the buyer's deal page, rendered on the server only (no script). A module of its own, apart from
// entry-server.tsx: the server loads it with the first deal page it shows, not at its start (decision 063).
import { renderToString } from 'react-dom/server'
import { DealPage } from './components/DealPage.tsx'
import type { DealPageProps } from './page-props.ts'

export function renderDealPage(props: DealPageProps): string {
  return renderToString(<DealPage {...props} />)
}
