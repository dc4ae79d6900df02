-- Every inventory row counts its changes: each statement that changes a row's total or sold sets
-- `version = version + 1` with it, in the same commit. Each process's in-memory copy of the
-- nights (src/hotel-calendar/night-store.ts) hears of changes from its own commits and, on
-- PostgreSQL, from every commit's notification, which may arrive after a newer change was already
-- applied; with the row's version carried along, a process keeps a value only if it is no older
-- than the one it holds.
-- Rows from before start at 0 (a constant default: no table rewrite, no long lock). A process of
-- an older build, during a rolling upgrade, writes without the bump; its notifications carry no
-- version and are applied as they come, as before.
ALTER TABLE inventory ADD COLUMN version bigint NOT NULL DEFAULT 0;
