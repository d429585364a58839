import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db, Tx } from '../../db/client.ts';
import { mailBrand } from '../../db/schema/index.ts';
import { MAIL_LOGO_PATH } from '../../providers/mail/layout.ts';
import { sendStoredMedia } from '../../providers/storage/send-stored.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';

export { MAIL_LOGO_PATH };

/** The storefront's own mark, drawn from its favicon: the logo until staff send one. */
const DEFAULT_LOGO_PATH = '/email-logo.png';

/**
 * The e-mails' logo staff sent (docs/decisions/0045, later): the media key of its PNG, or null while
 * the storefront's default mark is used.
 */
export function createMailBrand(deps: { db: Db; now: () => Date }) {
  async function logoKey(db: Db | Tx = deps.db): Promise<string | null> {
    const [row] = await db.select({ key: mailBrand.logoKey }).from(mailBrand).where(eq(mailBrand.id, 1));
    return row?.key ?? null;
  }

  /**
   * Sets the logo's key, or with null goes back to the default; two staff saving at once take turns
   * (the lock), so each learns which key it replaced and the replaced file can be removed.
   */
  async function setLogo(
    tx: Tx,
    key: string | null,
  ): Promise<{ before: string | null; after: string | null }> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mail_brand'))`);
    const before = await logoKey(tx);
    if (key === null) await tx.delete(mailBrand).where(eq(mailBrand.id, 1));
    else
      await tx
        .insert(mailBrand)
        .values({ id: 1, logoKey: key, updatedAt: deps.now() })
        .onConflictDoUpdate({ target: mailBrand.id, set: { logoKey: key, updatedAt: deps.now() } });
    return { before, after: key };
  }

  return { logoKey, setLogo };
}

export type MailBrandService = ReturnType<typeof createMailBrand>;

/**
 * `GET /api/media/marca/logo-email.png`, the address every e-mail's header shows: the logo staff sent,
 * streamed from the media storage, or a redirect to the storefront's default mark. Mail programs and
 * their image proxies keep it a few minutes, so a new logo shows in old e-mails too.
 */
export const mailLogoRoutes: FastifyPluginAsyncZod<{
  brand: MailBrandService;
  storage: MediaStorage;
}> = async (app, { brand, storage }) => {
  app.get(
    MAIL_LOGO_PATH,
    { schema: { tags: ['mensagens'], summary: 'Logo do cabeçalho dos e-mails (PNG)' } },
    async (req, reply) => {
      const key = await brand.logoKey();
      const sent =
        key &&
        (await sendStoredMedia(req, reply, storage, {
          key,
          type: 'image/png',
          cacheControl: 'public, max-age=300',
        }));
      return sent || reply.header('cache-control', 'public, max-age=300').redirect(DEFAULT_LOGO_PATH, 302);
    },
  );
};
