// The schema steps in the order they were written, run by Kysely's Migrator (../migrate.ts). Each database records a
// step under its place among the steps it runs ('0001', '0002', ...): PostgreSQL runs every one, SQLite all but
// 0005-rate-limit-counters, so from there SQLite's names are one lower than the modules' numbers (both kept, as every
// database made before recorded them). Never edit a step that has shipped: a schema change is a new module, added at
// the end of this list.
import type { SchemaStep } from '../migration-step.ts'
import * as step0001 from './0001-inquiries.ts'
import * as step0002 from './0002-meta.ts'
import * as step0003 from './0003-several-domains.ts'
import * as step0004 from './0004-mail-leases.ts'
import * as step0005 from './0005-rate-limit-counters.ts'
import * as step0006 from './0006-tls-names.ts'
import * as step0007 from './0007-offer-currency.ts'
import * as step0008 from './0008-console.ts'
import * as step0009 from './0009-negotiation.ts'
import * as step0010 from './0010-english.ts'
import * as step0011 from './0011-email-stem.ts'
import * as step0012 from './0012-deals.ts'
import * as step0013 from './0013-checkout.ts'
import * as step0014 from './0014-deal-deadlines.ts'
import * as step0015 from './0015-sold-notice.ts'
import * as step0016 from './0016-bank-payments.ts'
import * as step0017 from './0017-open-deal-per-name.ts'
import * as step0018 from './0018-passkeys.ts'
import * as step0019 from './0019-invoices.ts'
import * as step0020 from './0020-dns-updates.ts'
import * as step0021 from './0021-audit-log.ts'
import * as step0022 from './0022-domain-edits.ts'
import * as step0023 from './0023-buyer-name.ts'
import * as step0024 from './0024-instalments.ts'
import * as step0025 from './0025-seal-totp-secrets.ts'
import * as step0026 from './0026-advance-invoices.ts'
import * as step0027 from './0027-domain-checks.ts'
import * as step0028 from './0028-more-languages.ts'
import * as step0029 from './0029-visit-statistics.ts'
import * as step0030 from './0030-inquiry-content-key.ts'

const modules: [string, Omit<SchemaStep, 'id'>][] = [
  ['0001-inquiries', step0001],
  ['0002-meta', step0002],
  ['0003-several-domains', step0003],
  ['0004-mail-leases', step0004],
  ['0005-rate-limit-counters', step0005],
  ['0006-tls-names', step0006],
  ['0007-offer-currency', step0007],
  ['0008-console', step0008],
  ['0009-negotiation', step0009],
  ['0010-english', step0010],
  ['0011-email-stem', step0011],
  ['0012-deals', step0012],
  ['0013-checkout', step0013],
  ['0014-deal-deadlines', step0014],
  ['0015-sold-notice', step0015],
  ['0016-bank-payments', step0016],
  ['0017-open-deal-per-name', step0017],
  ['0018-passkeys', step0018],
  ['0019-invoices', step0019],
  ['0020-dns-updates', step0020],
  ['0021-audit-log', step0021],
  ['0022-domain-edits', step0022],
  ['0023-buyer-name', step0023],
  ['0024-instalments', step0024],
  ['0025-seal-totp-secrets', step0025],
  ['0026-advance-invoices', step0026],
  ['0027-domain-checks', step0027],
  ['0028-more-languages', step0028],
  ['0029-visit-statistics', step0029],
  ['0030-inquiry-content-key', step0030],
]

export const SCHEMA_STEPS: readonly SchemaStep[] = modules.map(([id, step]) => ({ id, ...step }))
