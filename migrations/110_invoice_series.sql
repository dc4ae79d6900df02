-- One row per hotel and invoice series, locked by every issue in that series before it reads the
-- clock (issue 35): the issue date (and so the year, whose counter gives the number) is read while
-- no other issue of the series can commit, so number order and issue-date order always agree, even
-- across midnight and the new year. The year's counter (invoice_counters) is taken under this lock.
CREATE TABLE invoice_series (
  hotel_id  text NOT NULL REFERENCES hotels (id),
  series    text NOT NULL,
  PRIMARY KEY (hotel_id, series)
);
