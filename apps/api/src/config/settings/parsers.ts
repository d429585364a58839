import { isIP } from 'node:net';
import { z } from 'zod';

/** What more than one group of settings parses with: a CEP, the proxies trusted, a boolean. */

export const cep = z
  .string()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().length(8, 'deve ter 8 dígitos'));

const isCidr = (v: string) => {
  const [addr = '', bits, ...rest] = v.split('/');
  const family = isIP(addr);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * Whom to believe about the client's address in X-Forwarded-For: `false` (nobody, the default), a
 * hop count (the last N proxies in front of the server), or a comma list of the proxies' addresses or
 * CIDRs. Never everyone: then any client could name its own address and dodge the per-IP limits.
 */
export const trustProxy = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    if (v === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true confiaria em qualquer cliente; use o número de proxies à frente do servidor (ex.: 1) ' +
          'ou a lista de endereços/CIDRs deles (ex.: 10.0.0.0/8,192.168.1.10)',
      });
    } else if (v !== 'false' && !/^\d{1,2}$/.test(v) && !v.split(',').every((p) => isCidr(p.trim()))) {
      ctx.addIssue({
        code: 'custom',
        message: 'use false, o número de proxies (ex.: 1) ou endereços/CIDRs separados por vírgula',
      });
    }
  })
  .transform((v): false | number | string[] => {
    if (v === 'false' || v === '0') return false;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    return v.split(',').map((p) => p.trim());
  });

/** The development default of CHECKIN_TOKEN_SECRET: public, so production refuses it. */
export const DEV_CHECKIN_TOKEN_SECRET = 'passada-desenvolvimento-troque-em-producao-0000';

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
