import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../config/env.ts';
import type { Database, Db } from '../db/client.ts';
import type { Providers } from '../providers/index.ts';
import { loggedMail, loggedWhatsApp } from '../providers/message-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    /** The open database (`kind` tells PGlite from PostgreSQL); `db` is its query builder. */
    database: Database;
    db: Db;
    /** The clock, replaceable in tests (deadlines, expiry, business days). */
    now: () => Date;
    /** Outside services, chosen by environment (docs/architecture.md §6). */
    providers: Providers;
  }
}

export interface InfraOptions {
  env: Env;
  database: Database;
  providers: Providers;
  now: () => Date;
}

/** What every module builds on: settings, database, clock and outside services. */
export default fp(
  async (app: FastifyInstance, opts: InfraOptions) => {
    app.decorate('env', opts.env);
    app.decorate('database', opts.database);
    app.decorate('db', opts.database.db);
    app.decorate('now', opts.now);
    // Every message sent is recorded in `message_log` (docs/decisions/0045).
    app.decorate('providers', {
      ...opts.providers,
      mail: loggedMail(opts.providers.mail, opts.database.db),
      whatsapp: loggedWhatsApp(opts.providers.whatsapp, opts.database.db),
    });
  },
  { name: 'infra', fastify: '5.x' },
);
