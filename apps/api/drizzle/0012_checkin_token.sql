ALTER TABLE "registrations" ADD COLUMN "checkin_nonce" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;
-- The default is volatile, so PostgreSQL rewrites the table with a nonce of its own for every existing
-- registration (the backfill): the codes they are shown from now on are signed like new ones (decision 0026).
