import { z } from 'zod';
import { trustProxy } from './parsers.ts';

/** The server: where it listens, what it logs, its name and address, whom it trusts about the client, how it stops. */
export const serverSettings = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.url().optional(),
  STORE_NAME: z.string().min(1).default('Passada'),
  TRUST_PROXY: trustProxy.default(false),
  /**
   * On SIGTERM the server keeps taking requests this long before it stops listening, so connections a
   * load balancer already opened are served; then it finishes what is in flight and exits.
   */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(120).default(3),
  /**
   * Addresses (path and query) whose kept answers the server's door answers before routing (public
   * results and events answers); past it, the oldest address goes back to the routes (docs/decisions/0089).
   */
  FRONT_DOOR_MAX_ADDRESSES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
};
