-- Folios and invoices (API.md section 13, issue 35). Every table is the hotel's: hotel_id leads
-- each primary key. Amounts are integer minor units of the reservation's currency.

-- The lines of a folio that are stored: the desk's charges (`charge`), and the reservation's own
-- lines (`room`, `service`, `tax`, `fee`) once an invoice took them, frozen as invoiced. The
-- reservation's lines not yet invoiced are not stored: they are read from the reservation as it
-- stands, so a re-priced stay replaces exactly what is not yet invoiced (docs/architecture.md).
-- `source_key` names a reservation line (`room:double:2027-03-01:13500`, …) so it is not shown twice.
CREATE TABLE folio_lines (
  hotel_id        text NOT NULL REFERENCES hotels (id),
  id              text NOT NULL,
  reservation_id  bigint NOT NULL REFERENCES reservations (id),
  type            text NOT NULL CHECK (type IN ('room', 'service', 'tax', 'fee', 'charge')),
  source_key      text,
  code            text,
  description     text NOT NULL,
  line_date       text NOT NULL,
  quantity        integer NOT NULL CHECK (quantity > 0),
  unit_amount     bigint NOT NULL,
  amount          bigint NOT NULL,
  vat_rate        numeric(5, 2),
  invoice_id      text,
  voided          boolean NOT NULL DEFAULT false,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, id),
  CHECK (amount = unit_amount * quantity),
  CHECK (type = 'charge' OR source_key IS NOT NULL)
);
CREATE INDEX folio_lines_reservation ON folio_lines (hotel_id, reservation_id, seq);
-- A reservation line is frozen at most once while invoiced.
CREATE UNIQUE INDEX folio_lines_one_source ON folio_lines (hotel_id, reservation_id, source_key)
  WHERE source_key IS NOT NULL;

-- Money taken or given back at the desk (card payments through the provider stay in `payments`).
CREATE TABLE folio_payments (
  hotel_id        text NOT NULL REFERENCES hotels (id),
  id              text NOT NULL,
  reservation_id  bigint NOT NULL REFERENCES reservations (id),
  kind            text NOT NULL CHECK (kind IN ('payment', 'refund')),
  method          text NOT NULL CHECK (method IN ('cash', 'card_terminal', 'bank_transfer')),
  amount          bigint NOT NULL CHECK (amount > 0),
  reference       text,
  at              timestamptz NOT NULL DEFAULT now(),
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (hotel_id, id)
);
CREATE INDEX folio_payments_reservation ON folio_payments (hotel_id, reservation_id, seq);

-- The next number of each series and year: the row is locked (SELECT … FOR UPDATE, or the upsert's
-- row lock) by the issuing transaction until it commits, so numbers are consecutive in issue order
-- and a rolled-back issue gives its number back. A sequence would leave gaps.
CREATE TABLE invoice_counters (
  hotel_id  text NOT NULL REFERENCES hotels (id),
  series    text NOT NULL,
  year      integer NOT NULL,
  last      integer NOT NULL CHECK (last >= 0),
  PRIMARY KEY (hotel_id, series, year)
);

-- Invoices and credit notes: written once, never updated (`corrected_by` aside, set once by the
-- credit note that corrects it) nor deleted.
CREATE TABLE invoices (
  hotel_id        text NOT NULL REFERENCES hotels (id),
  id              text NOT NULL,
  number          text NOT NULL,
  series          text NOT NULL,
  type            text NOT NULL CHECK (type IN ('invoice', 'credit_note')),
  reservation_id  bigint NOT NULL REFERENCES reservations (id),
  issued_at       timestamptz NOT NULL,
  issue_date      text NOT NULL,
  currency        text NOT NULL,
  issuer          jsonb NOT NULL,
  recipient       jsonb NOT NULL,
  taxes           jsonb NOT NULL,
  total           bigint NOT NULL,
  language        text NOT NULL,
  corrects        text,
  corrected_by    text,
  reason          text,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (hotel_id, id),
  UNIQUE (hotel_id, number)
);
CREATE INDEX invoices_issued ON invoices (hotel_id, issued_at, seq);
CREATE INDEX invoices_reservation ON invoices (hotel_id, reservation_id);
-- One credit note per invoice, whatever the concurrency.
CREATE UNIQUE INDEX invoices_one_correction ON invoices (hotel_id, corrects) WHERE corrects IS NOT NULL;

CREATE TABLE invoice_lines (
  hotel_id     text NOT NULL,
  invoice_id   text NOT NULL,
  position     integer NOT NULL,
  folio_line_id text,
  description  text NOT NULL,
  quantity     integer NOT NULL,
  unit_amount  bigint NOT NULL,
  amount       bigint NOT NULL,
  vat_rate     numeric(5, 2),
  PRIMARY KEY (hotel_id, invoice_id, position),
  FOREIGN KEY (hotel_id, invoice_id) REFERENCES invoices (hotel_id, id)
);

-- The head of each issuer's VERI*FACTU chain (per hotel and tax id): locked by the issuing
-- transaction, so two processes never chain two records to the same previous one (no fork).
CREATE TABLE verifactu_chain_heads (
  hotel_id   text NOT NULL REFERENCES hotels (id),
  issuer_tax_id text NOT NULL,
  last_hash  text NOT NULL,
  position   bigint NOT NULL,
  PRIMARY KEY (hotel_id, issuer_tax_id)
);

-- The registration records in chain order (`position` from 1 per issuer), each with the values it
-- hashed under the agency's names, so anyone can recompute the chain. Ready to be sent to AEAT.
CREATE TABLE verifactu_records (
  hotel_id       text NOT NULL REFERENCES hotels (id),
  issuer_tax_id  text NOT NULL,
  position       bigint NOT NULL,
  invoice_id     text NOT NULL,
  number         text NOT NULL,
  fields         jsonb NOT NULL,
  hash           text NOT NULL,
  previous_hash  text NOT NULL,
  generated_at   timestamptz NOT NULL,
  -- The read's order and cursor: given while the chain head is locked, so it follows `position`.
  seq            bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (hotel_id, issuer_tax_id, position),
  UNIQUE (hotel_id, invoice_id),
  FOREIGN KEY (hotel_id, invoice_id) REFERENCES invoices (hotel_id, id)
);
CREATE INDEX verifactu_records_read ON verifactu_records (hotel_id, seq);

-- Keys may hold the folio scopes (API.md 12's list: the same constraint as migration 080 of the staff
-- accounts writes, so whichever runs last leaves it the same).
ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
  cardinality(scopes) > 0 AND scopes <@ ARRAY['reservations:read', 'reservations:write',
    'guests:identity', 'inventory:read', 'inventory:write', 'webhooks:write', 'keys:write',
    'staff:write', 'audit:read', 'folios:read', 'folios:write']);
