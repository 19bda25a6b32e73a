// GET /kaufen: the checkout at the fixed price, rendered on the server only (no script). A module of its own, apart
// from entry-server.tsx: the server loads it with the first checkout it shows, not at its start (decision 063).
import { renderToString } from 'react-dom/server'
import { CheckoutPage } from './components/CheckoutPage.tsx'
import type { CheckoutPageProps } from './page-props.ts'

export function renderCheckoutPage(props: CheckoutPageProps): string {
  return renderToString(<CheckoutPage {...props} />)
}
