// The SQLite schema steps, one entry per version, run by Kysely's Migrator (migrate.ts). Files made before it
// counted these steps in PRAGMA user_version, which is still kept up to date. Never edit an entry that has
// shipped: add a new one.
import { sealPlainTotpSecrets } from './migration-seal-totp.ts'
import type { MigrationStep } from './migration-step.ts'

export const SQLITE_MIGRATIONS: MigrationStep[] = [
  `CREATE TABLE inquiries (
     id INTEGER PRIMARY KEY,
     token TEXT NOT NULL UNIQUE,
     content_hash TEXT NOT NULL,
     domain TEXT NOT NULL,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     message TEXT NOT NULL,
     spam_reason TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX inquiries_domain_created ON inquiries (domain, created_at);
   CREATE TABLE outbox (
     id INTEGER PRIMARY KEY,
     inquiry_id INTEGER NOT NULL UNIQUE REFERENCES inquiries (id),
     message_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     sent_at INTEGER,
     failed_at INTEGER
   );
   CREATE INDEX outbox_pending_due ON outbox (next_attempt_at) WHERE status = 'pending';`,
  // A row the readiness check rewrites: proves the file can take a write right now.
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Several domains: offers, per-domain recipients, and page views counted per domain and day.
  `ALTER TABLE inquiries ADD COLUMN offer_eur INTEGER;
   ALTER TABLE inquiries ADD COLUMN below_minimum INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE outbox ADD COLUMN mail_to TEXT;
   ALTER TABLE outbox ADD COLUMN resends INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX inquiries_created ON inquiries (created_at);
   CREATE TABLE page_views (
     domain TEXT NOT NULL,
     day TEXT NOT NULL,
     views INTEGER NOT NULL,
     PRIMARY KEY (domain, day)
   ) WITHOUT ROWID;`,
  // Several processes on one file: a worker leases the mail it is sending, so no other sends it at the same time.
  `ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
   ALTER TABLE outbox ADD COLUMN lease_until INTEGER;`,
  // Names a wildcard entry let through /tls-check, by the day they were first approved (for the daily limit).
  `CREATE TABLE tls_names (
     wildcard TEXT NOT NULL,
     name TEXT NOT NULL,
     day TEXT NOT NULL,
     PRIMARY KEY (wildcard, name)
   ) WITHOUT ROWID;
   CREATE INDEX tls_names_day ON tls_names (wildcard, day);`,
  // Offers are in the domain's currency; every offer made before was in euros.
  `ALTER TABLE inquiries RENAME COLUMN offer_eur TO offer_amount;
   ALTER TABLE inquiries ADD COLUMN offer_currency TEXT;
   UPDATE inquiries SET offer_currency = 'EUR' WHERE offer_amount IS NOT NULL;`,
  // The owner's console: an inquiry's state, free-text search, replies to the visitor (mail of their own in the outbox,
  // which therefore holds one mail per inquiry and one per reply) and sign-in sessions. The search index also holds
  // the domain, so that a search within one domain is one lookup in it rather than a walk over either. SQLite cannot drop a UNIQUE
  // constraint: the outbox is rebuilt.
  `ALTER TABLE inquiries ADD COLUMN status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'answered', 'archived', 'spam'));
   UPDATE inquiries SET status = 'spam' WHERE spam_reason IS NOT NULL;
   CREATE INDEX inquiries_status_created ON inquiries (status, created_at);
   CREATE INDEX inquiries_domain_status_created ON inquiries (domain, status, created_at);
   CREATE VIRTUAL TABLE inquiries_fts USING fts5(
     name, email, message, domain, content = 'inquiries', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
   );
   INSERT INTO inquiries_fts (inquiries_fts) VALUES ('rebuild');
   CREATE TRIGGER inquiries_fts_insert AFTER INSERT ON inquiries BEGIN
     INSERT INTO inquiries_fts (rowid, name, email, message, domain) VALUES (new.id, new.name, new.email, new.message, new.domain);
   END;
   CREATE TRIGGER inquiries_fts_delete AFTER DELETE ON inquiries BEGIN
     INSERT INTO inquiries_fts (inquiries_fts, rowid, name, email, message, domain) VALUES ('delete', old.id, old.name, old.email, old.message, old.domain);
   END;
   CREATE TABLE replies (
     id INTEGER PRIMARY KEY,
     inquiry_id INTEGER NOT NULL REFERENCES inquiries (id),
     body TEXT NOT NULL,
     reply_to TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX replies_inquiry ON replies (inquiry_id);
   CREATE TABLE outbox_rebuilt (
     id INTEGER PRIMARY KEY,
     inquiry_id INTEGER NOT NULL REFERENCES inquiries (id),
     reply_id INTEGER REFERENCES replies (id),
     message_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     sent_at INTEGER,
     failed_at INTEGER,
     mail_to TEXT,
     resends INTEGER NOT NULL DEFAULT 0,
     lease_owner TEXT,
     lease_until INTEGER
   );
   INSERT INTO outbox_rebuilt (id, inquiry_id, message_id, status, attempts, next_attempt_at, last_error, created_at, sent_at, failed_at, mail_to, resends, lease_owner, lease_until)
     SELECT id, inquiry_id, message_id, status, attempts, next_attempt_at, last_error, created_at, sent_at, failed_at, mail_to, resends, lease_owner, lease_until FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_rebuilt RENAME TO outbox;
   CREATE UNIQUE INDEX outbox_inquiry_mail ON outbox (inquiry_id) WHERE reply_id IS NULL;
   CREATE UNIQUE INDEX outbox_reply_mail ON outbox (reply_id);
   CREATE INDEX outbox_inquiry ON outbox (inquiry_id);
   CREATE INDEX outbox_pending_due ON outbox (next_attempt_at) WHERE status = 'pending';
   CREATE TABLE sessions (
     id_hash TEXT PRIMARY KEY,
     created_at INTEGER NOT NULL,
     last_seen_at INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // From inquiry to deal (docs/negotiation.md): the states of a negotiation and of a buyer's confirmation, a
  // counter-offer's amount and expiry, the kind of each mail to the visitor, and webhooks as outbox rows of their own
  // (one per inquiry and address). A column's CHECK cannot be altered in SQLite: the state moves to a new column.
  // The indexes made anew have no statistics beside the others' (if the file has any): the planner then took the
  // wrong one for a domain's inbox and sorted all its inquiries. ANALYZE gives every index statistics of its own.
  `ALTER TABLE inquiries ADD COLUMN state TEXT NOT NULL DEFAULT 'new'
     CHECK (state IN ('new', 'unconfirmed', 'answered', 'countered', 'expired', 'accepted', 'declined', 'archived', 'spam'));
   UPDATE inquiries SET state = status WHERE status <> 'new';
   DROP INDEX inquiries_status_created;
   DROP INDEX inquiries_domain_status_created;
   ALTER TABLE inquiries DROP COLUMN status;
   ALTER TABLE inquiries RENAME COLUMN state TO status;
   CREATE INDEX inquiries_status_created ON inquiries (status, created_at);
   CREATE INDEX inquiries_domain_status_created ON inquiries (domain, status, created_at);
   CREATE INDEX inquiries_email ON inquiries (email COLLATE NOCASE);
   ALTER TABLE inquiries ADD COLUMN counter_amount INTEGER;
   ALTER TABLE inquiries ADD COLUMN counter_expires_at INTEGER;
   ALTER TABLE replies ADD COLUMN kind TEXT NOT NULL DEFAULT 'reply'
     CHECK (kind IN ('reply', 'counter', 'accept', 'decline', 'notice', 'verify'));
   ALTER TABLE replies ADD COLUMN amount INTEGER;
   ALTER TABLE outbox ADD COLUMN webhook_url TEXT;
   DROP INDEX outbox_inquiry_mail;
   CREATE UNIQUE INDEX outbox_inquiry_mail ON outbox (inquiry_id) WHERE reply_id IS NULL AND webhook_url IS NULL;
   CREATE UNIQUE INDEX outbox_inquiry_webhook ON outbox (inquiry_id, webhook_url) WHERE webhook_url IS NOT NULL;
   ANALYZE inquiries;
   ANALYZE outbox;
   ANALYZE replies;`,
  // English pages (docs/decisions/025): the language the buyer wrote in. Every inquiry before was German.
  `ALTER TABLE inquiries ADD COLUMN language TEXT NOT NULL DEFAULT 'de' CHECK (language IN ('de', 'en'));`,
  // Finding a person's inquiries in every spelling of their address (decision 030, store/privacy.ts): the local part
  // up to its first "+", without dots, in lower case; the domain's spellings need IDNA, which is done on the rows found.
  `DROP INDEX inquiries_email;
   CREATE INDEX inquiries_email_stem ON inquiries (lower(replace(substr(email, 1, CASE WHEN instr(email, '+') BETWEEN 1 AND instr(email, '@') THEN instr(email, '+') ELSE instr(email, '@') END - 1), '.', '')));
   ANALYZE inquiries;`,
  // Deals (docs/deals.md, decision 033): an accepted offer becomes a deal with its own states, payment reference
  // and deadlines; its page is found by the SHA-256 of a random link id (a copy of the database does not give the
  // links away); the transfer code is kept encrypted with a key outside the database. The mails of a deal are
  // replies of kinds of their own: a column's CHECK cannot be altered in SQLite, so `kind` moves to a new column.
  `CREATE TABLE deals (
     id INTEGER PRIMARY KEY,
     link_hash TEXT NOT NULL UNIQUE,
     link_sealed TEXT NOT NULL,
     inquiry_id INTEGER NOT NULL REFERENCES inquiries (id) ON DELETE CASCADE,
     domain TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('awaiting_payment', 'paid', 'transferred', 'completed', 'cancelled')),
     amount INTEGER NOT NULL CHECK (amount > 0),
     currency TEXT NOT NULL,
     reference TEXT NOT NULL UNIQUE,
     created_at INTEGER NOT NULL,
     payment_due_at INTEGER NOT NULL,
     transfer_days INTEGER NOT NULL,
     paid_at INTEGER,
     transfer_due_at INTEGER,
     transferred_at INTEGER,
     completes_at INTEGER,
     completed_at INTEGER,
     cancelled_at INTEGER,
     cancelled_by TEXT CHECK (cancelled_by IN ('owner', 'buyer')),
     cancel_reason TEXT,
     transfer_code TEXT,
     transfer_note TEXT
   );
   CREATE UNIQUE INDEX deals_open_inquiry ON deals (inquiry_id) WHERE status <> 'cancelled';
   CREATE INDEX deals_status ON deals (status);
   CREATE INDEX deals_domain ON deals (domain, status);
   ALTER TABLE replies ADD COLUMN kind_next TEXT NOT NULL DEFAULT 'reply'
     CHECK (kind_next IN ('reply', 'counter', 'accept', 'decline', 'notice', 'verify', 'deal-paid', 'deal-transferred', 'deal-completed', 'deal-cancelled'));
   UPDATE replies SET kind_next = kind;
   ALTER TABLE replies DROP COLUMN kind;
   ALTER TABLE replies RENAME COLUMN kind_next TO kind;`,
  // The fixed-price checkout (decision 035): a checkout is an inquiry of its own kind, with the buyer's postal
  // address, company, country and VAT ID beside it, so the inbox, access/forget, retention and exports cover it.
  `ALTER TABLE inquiries ADD COLUMN kind TEXT NOT NULL DEFAULT 'inquiry' CHECK (kind IN ('inquiry', 'checkout'));
   ALTER TABLE inquiries ADD COLUMN buyer_company TEXT;
   ALTER TABLE inquiries ADD COLUMN buyer_street TEXT;
   ALTER TABLE inquiries ADD COLUMN buyer_postcode TEXT;
   ALTER TABLE inquiries ADD COLUMN buyer_city TEXT;
   ALTER TABLE inquiries ADD COLUMN buyer_country TEXT;
   ALTER TABLE inquiries ADD COLUMN buyer_vat_id TEXT;`,
  // A deal's deadlines (decision 036): when each reminder went out, set in the transaction that queues it, so that it
  // goes out once; the reminders' own reply kinds (the CHECK moves to a new column again, as above); and the deal's
  // webhooks (deal.*): outbox rows of their own, once per deal, event and address.
  `ALTER TABLE deals ADD COLUMN payment_reminded_at INTEGER;
   ALTER TABLE deals ADD COLUMN payment_overdue_at INTEGER;
   ALTER TABLE deals ADD COLUMN transfer_reminded_at INTEGER;
   ALTER TABLE replies ADD COLUMN kind_next TEXT NOT NULL DEFAULT 'reply'
     CHECK (kind_next IN ('reply', 'counter', 'accept', 'decline', 'notice', 'verify', 'deal-paid', 'deal-transferred', 'deal-completed', 'deal-cancelled', 'deal-payment-reminder', 'deal-overdue', 'deal-transfer-reminder'));
   UPDATE replies SET kind_next = kind;
   ALTER TABLE replies DROP COLUMN kind;
   ALTER TABLE replies RENAME COLUMN kind_next TO kind;
   ALTER TABLE outbox ADD COLUMN deal_id INTEGER;
   ALTER TABLE outbox ADD COLUMN deal_event TEXT;
   DROP INDEX outbox_inquiry_webhook;
   CREATE UNIQUE INDEX outbox_inquiry_webhook ON outbox (inquiry_id, webhook_url) WHERE webhook_url IS NOT NULL AND deal_event IS NULL;
   CREATE UNIQUE INDEX outbox_deal_webhook ON outbox (deal_id, deal_event, webhook_url) WHERE deal_event IS NOT NULL;`,
  // "Bereits verkauft" (decision 037): the owner's choice, made with "Übertragen", to tell the other inquirers when
  // the deal completes by itself; and the notice's own reply kind (the CHECK moves to a new column again, as above).
  `ALTER TABLE deals ADD COLUMN notify_others INTEGER CHECK (notify_others IN (0, 1));
   ALTER TABLE replies ADD COLUMN kind_next TEXT NOT NULL DEFAULT 'reply'
     CHECK (kind_next IN ('reply', 'counter', 'accept', 'decline', 'notice', 'verify', 'deal-paid', 'deal-transferred', 'deal-completed', 'deal-cancelled', 'deal-payment-reminder', 'deal-overdue', 'deal-transfer-reminder', 'sold-notice'));
   UPDATE replies SET kind_next = kind;
   ALTER TABLE replies DROP COLUMN kind;
   ALTER TABLE replies RENAME COLUMN kind_next TO kind;`,
  // Bank statements (decision 040): each booking applied to a deal, once, by its key (the account and the bank's
  // reference, or a digest of the booking). No name, no remittance text: the amount, the date and the references.
  // A deal erased (forget, retention) leaves its bookings' keys, so that importing the file again changes nothing.
  `CREATE TABLE bank_payments (
     id INTEGER PRIMARY KEY,
     bank_key TEXT NOT NULL UNIQUE,
     deal_id INTEGER REFERENCES deals (id) ON DELETE SET NULL,
     reference TEXT NOT NULL,
     account TEXT NOT NULL,
     bank_ref TEXT,
     booked_on TEXT,
     amount INTEGER NOT NULL,
     currency TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('payment', 'return')),
     created_at INTEGER NOT NULL
   );
   CREATE INDEX bank_payments_deal ON bank_payments (deal_id);`,
  // One open deal per name (decision 037): the acceptance checks it in its transaction; the index holds it against
  // any other writer. A completed deal is left out: the name is sold, and the acceptance refuses it before.
  `CREATE UNIQUE INDEX deals_open_domain ON deals (domain) WHERE status IN ('awaiting_payment', 'paid', 'transferred');`,
  // Passkeys and a second factor for the console (decision 041): the passkeys' public keys and counters, the
  // challenges handed out (single use, short-lived), the TOTP secret with the last time step used (replay), the
  // recovery codes' hashes, and what the sessions page shows of a session (browser summary, address in part, how).
  `CREATE TABLE passkeys (
     id INTEGER PRIMARY KEY,
     credential_id TEXT NOT NULL UNIQUE,
     public_key TEXT NOT NULL,
     counter INTEGER NOT NULL DEFAULT 0,
     transports TEXT NOT NULL DEFAULT '[]',
     name TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     last_used_at INTEGER
   );
   CREATE TABLE webauthn_challenges (
     challenge TEXT PRIMARY KEY,
     purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign-in')),
     session_hash TEXT,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
   CREATE TABLE totp (
     owner INTEGER PRIMARY KEY CHECK (owner = 1),
     secret TEXT NOT NULL,
     confirmed_at INTEGER,
     last_step INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE recovery_codes (
     code_hash TEXT PRIMARY KEY,
     used_at INTEGER
   );
   ALTER TABLE sessions ADD COLUMN user_agent TEXT;
   ALTER TABLE sessions ADD COLUMN address TEXT;
   ALTER TABLE sessions ADD COLUMN method TEXT;`,
  // Invoices (decision 038): one row per invoice or Stornorechnung, its frozen data and, once drawn, its PDF and
  // hash; the gapless number from one counter row, taken in the transaction that inserts the invoice. An invoice
  // outlives its deal and inquiry (§147 AO, §14b UStG): the references to them are set null, never cascaded.
  `CREATE TABLE invoice_numbers (
     seller TEXT PRIMARY KEY,
     last INTEGER NOT NULL
   );
   CREATE TABLE invoices (
     id INTEGER PRIMARY KEY,
     number INTEGER NOT NULL UNIQUE,
     kind TEXT NOT NULL CHECK (kind IN ('invoice', 'cancellation')),
     deal_id INTEGER REFERENCES deals (id) ON DELETE SET NULL,
     cancels_id INTEGER UNIQUE REFERENCES invoices (id),
     reply_id INTEGER REFERENCES replies (id) ON DELETE SET NULL,
     issued_at INTEGER NOT NULL,
     data TEXT NOT NULL,
     e_invoice INTEGER NOT NULL CHECK (e_invoice IN (0, 1)),
     pdf BLOB,
     sha256 TEXT
   );
   CREATE UNIQUE INDEX invoices_deal_invoice ON invoices (deal_id) WHERE kind = 'invoice';
   CREATE INDEX invoices_reply ON invoices (reply_id);`,
  // DNS updates (decision 045): the server's RFC 2136 updates of _for-sale records, an outbox of their own (one row
  // per zone and change, the zone's records as JSON), and the names the server has put records on (so that a name
  // removed from the domains file gets its records deleted).
  `CREATE TABLE dns_updates (
     id INTEGER PRIMARY KEY,
     zone TEXT NOT NULL,
     names TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     sent_at INTEGER,
     failed_at INTEGER,
     lease_owner TEXT,
     lease_until INTEGER
   );
   CREATE INDEX dns_updates_zone ON dns_updates (zone, id);
   CREATE INDEX dns_updates_pending_due ON dns_updates (next_attempt_at) WHERE status = 'pending';
   CREATE TABLE dns_names (
     domain TEXT PRIMARY KEY,
     zone TEXT NOT NULL
   );
   CREATE INDEX dns_names_zone ON dns_names (zone);`,
  // The audit trail (decision 043): one row per change made through the console or the CLI, and per sign-in. No
  // foreign keys: a row outlives the inquiry or deal it names until forget or retention (2 years) removes it.
  `CREATE TABLE audit_log (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'refused', 'failed')),
     inquiry_id INTEGER,
     deal_id INTEGER,
     domain TEXT,
     detail TEXT
   );
   CREATE INDEX audit_log_at ON audit_log (at, id);
   CREATE INDEX audit_log_inquiry ON audit_log (inquiry_id) WHERE inquiry_id IS NOT NULL;
   CREATE INDEX audit_log_deal ON audit_log (deal_id) WHERE deal_id IS NOT NULL;`,
  // Edits of the domains file made in the console or the CLI (decision 044): numbered without gaps, each instance
  // takes in the ones its own file lacks.
  `CREATE TABLE domain_edits (
     version INTEGER PRIMARY KEY,
     edits TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );`,
  // The invoice address of a deal from a negotiation (decision 038), given by the buyer on the deal page into the
  // checkout's buyer_* columns; the name on the invoice is a column of its own, because the inquiry's name is what
  // the search index holds.
  `ALTER TABLE inquiries ADD COLUMN buyer_name TEXT;`,
  // Instalments (decision 042): the plan an inquiry was offered (with a counter-offer, or chosen at the checkout), the
  // deal's choice of when the name moves, its rates each with a reference of their own and the marks of their
  // reminders; a rate's webhooks (deal.overdue) are told apart by their rate number, 0 for the deal's own events.
  `ALTER TABLE inquiries ADD COLUMN plan_rates INTEGER CHECK (plan_rates BETWEEN 2 AND 60);
   ALTER TABLE inquiries ADD COLUMN plan_down_payment INTEGER;
   ALTER TABLE inquiries ADD COLUMN plan_transfer TEXT CHECK (plan_transfer IN ('after-last', 'at-once'));
   ALTER TABLE deals ADD COLUMN plan_transfer TEXT CHECK (plan_transfer IN ('after-last', 'at-once'));
   CREATE TABLE deal_rates (
     id INTEGER PRIMARY KEY,
     deal_id INTEGER NOT NULL REFERENCES deals (id) ON DELETE CASCADE,
     number INTEGER NOT NULL CHECK (number BETWEEN 0 AND 60),
     amount INTEGER NOT NULL CHECK (amount > 0),
     due_at INTEGER NOT NULL,
     reference TEXT NOT NULL UNIQUE,
     paid_at INTEGER,
     paid_by TEXT CHECK (paid_by IN ('owner', 'bank')),
     reminded_at INTEGER,
     overdue_at INTEGER,
     waited_at INTEGER,
     UNIQUE (deal_id, number)
   );
   ALTER TABLE outbox ADD COLUMN deal_rate INTEGER NOT NULL DEFAULT 0;
   DROP INDEX outbox_deal_webhook;
   CREATE UNIQUE INDEX outbox_deal_webhook ON outbox (deal_id, deal_event, deal_rate, webhook_url) WHERE deal_event IS NOT NULL;`,
  // The TOTP secret sealed with the deal key (decision 041): a copy of the database no longer holds it.
  sealPlainTotpSecrets,
  // Advance-payment invoices (decision 046): an Anzahlungsrechnung is an invoice row naming the rate it was issued for
  // (0 the down payment); a deal keeps one invoice over the whole price (the final one, rate null) and one advance
  // invoice per rate, each under its own number of the one sequence.
  `ALTER TABLE invoices ADD COLUMN advance_rate INTEGER CHECK (advance_rate BETWEEN 0 AND 60);
   DROP INDEX invoices_deal_invoice;
   CREATE UNIQUE INDEX invoices_deal_invoice ON invoices (deal_id) WHERE kind = 'invoice' AND advance_rate IS NULL;
   CREATE UNIQUE INDEX invoices_deal_advance ON invoices (deal_id, advance_rate) WHERE kind = 'invoice' AND advance_rate IS NOT NULL;`,
  // The daily checks of every listed name (decision 047): the last result per name, what the owner was last told of
  // (so a webhook goes once per change of state), and the notifications (domain.unreachable, domain.expiring) in an
  // outbox of their own, as the DNS updates have (outbox rows belong to an inquiry).
  `CREATE TABLE domain_checks (
     domain TEXT PRIMARY KEY,
     checked_at INTEGER NOT NULL,
     pointing TEXT NOT NULL CHECK (pointing IN ('here', 'elsewhere', 'unknown')),
     pointing_detail TEXT NOT NULL,
     records TEXT NOT NULL CHECK (records IN ('ok', 'missing', 'stale', 'left-over', 'malformed', 'unknown')),
     records_detail TEXT NOT NULL,
     expiry TEXT NOT NULL CHECK (expiry IN ('known', 'none', 'unknown')),
     expires_at INTEGER,
     expiry_detail TEXT NOT NULL,
     rdap_checked_at INTEGER,
     told_pointing TEXT CHECK (told_pointing IN ('here', 'elsewhere')),
     told_expires_at INTEGER
   );
   CREATE INDEX domain_checks_checked ON domain_checks (checked_at);
   CREATE TABLE domain_notices (
     id INTEGER PRIMARY KEY,
     domain TEXT NOT NULL,
     event TEXT NOT NULL CHECK (event IN ('unreachable', 'expiring')),
     facts TEXT NOT NULL,
     webhook_url TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     sent_at INTEGER,
     failed_at INTEGER,
     lease_owner TEXT,
     lease_until INTEGER
   );
   CREATE INDEX domain_notices_pending_due ON domain_notices (next_attempt_at) WHERE status = 'pending';`,
  // French, Spanish, Italian, Dutch and Polish pages (decision 048): the language the buyer wrote in may be any of them
  // (the CHECK moves to a new column, as the replies' kinds did).
  `ALTER TABLE inquiries ADD COLUMN language_next TEXT NOT NULL DEFAULT 'de' CHECK (language_next IN ('de', 'en', 'fr', 'es', 'it', 'nl', 'pl'));
   UPDATE inquiries SET language_next = language;
   ALTER TABLE inquiries DROP COLUMN language;
   ALTER TABLE inquiries RENAME COLUMN language_next TO language;`,
  // Visitor statistics (decision 049): counters per name, Berlin day, metric and key; the day's visitor hashes and
  // salt, both erased when the day is over.
  `CREATE TABLE visit_counts (
     domain TEXT NOT NULL,
     day TEXT NOT NULL,
     metric TEXT NOT NULL CHECK (metric IN ('visit', 'visitor', 'filtered', 'source', 'language', 'form')),
     key TEXT NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (day, domain, metric, key)
   ) WITHOUT ROWID;
   CREATE TABLE visitor_hashes (
     day TEXT NOT NULL,
     domain TEXT NOT NULL,
     hash TEXT NOT NULL,
     PRIMARY KEY (day, domain, hash)
   ) WITHOUT ROWID;
   CREATE TABLE visit_salts (
     day TEXT PRIMARY KEY,
     salt TEXT NOT NULL
   );`,
]
