// The SQLite schema steps, one entry per version, run by Kysely's Migrator (migrate.ts). Files made before it
// counted these steps in PRAGMA user_version, which is still kept up to date. Never edit an entry that has
// shipped: add a new one.
export const SQLITE_MIGRATIONS: string[] = [
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
]
