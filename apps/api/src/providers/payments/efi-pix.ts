import type { Env } from '../../config/env.ts';
import { type EfiClient, type Json, obj, str } from './efi-client.ts';
import { centsFrom, dateFrom, pixState, reaisString, refundStatusOf } from './efi-wire.ts';
import {
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
  type PixWebhookRegistration,
} from './payments.provider.ts';

type PixMethods = Pick<
  PaymentsProvider,
  'createPix' | 'getPix' | 'cancelPix' | 'refundPix' | 'refundStatus' | 'registerPixWebhook' | 'getPixWebhook'
>;

/** Efí's API Pix: charges (cob), refunds (devolução) and the webhook. */
export function efiPixMethods(env: Env, client: EfiClient): PixMethods {
  const { pix, call } = client;
  const devolucaoPath = (endToEndId: string, refundId: string) =>
    `/v2/pix/${encodeURIComponent(endToEndId)}/devolucao/${encodeURIComponent(refundId)}`;
  const cobPath = (txid: string) => `/v2/cob/${encodeURIComponent(txid)}`;
  const webhookPath = `/v2/webhook/${encodeURIComponent(env.PIX_KEY)}`;
  const getPix = async (txid: string) => pixState(txid, await call(pix, 'GET', cobPath(txid), 'read'));

  async function getPixWebhook(): Promise<PixWebhookRegistration | null> {
    let answer: Json;
    try {
      answer = await call(pix, 'GET', webhookPath, 'read');
    } catch (err) {
      if (err instanceof PaymentProviderError && err.status === 404) return null;
      throw err;
    }
    const url = str(answer.webhookUrl);
    if (!url) return null;
    const createdAt = dateFrom(answer.criacao);
    return { url, ...(createdAt ? { createdAt } : {}) };
  }

  return {
    async createPix({ txid, amountCents, expiresInSeconds, description }) {
      let cob: Json;
      try {
        cob = await call(pix, 'PUT', cobPath(txid), 'auth', {
          calendario: { expiracao: expiresInSeconds },
          valor: { original: reaisString(amountCents) },
          chave: env.PIX_KEY,
          solicitacaoPagador: description.slice(0, 140),
        });
      } catch (err) {
        if (!(err instanceof PaymentProviderTimeout)) throw err;
        // The charge may exist even though its answer was lost: the txid is ours, so ask for it.
        try {
          cob = await call(pix, 'GET', cobPath(txid), 'read');
        } catch {
          throw err;
        }
        if (centsFrom(obj(cob.valor).original) !== amountCents) throw err;
      }
      const state = pixState(txid, cob);
      const locId = obj(cob.loc).id;
      if (locId === undefined)
        throw new PaymentProviderError(
          'A Efí não devolveu a location da cobrança.',
          502,
          'resposta_invalida',
        );
      const qr = await call(pix, 'GET', `/v2/loc/${encodeURIComponent(String(locId))}/qrcode`, 'read');
      const pixCopiaECola = str(qr.qrcode) ?? str(cob.pixCopiaECola);
      const qrCodeDataUri = str(qr.imagemQrcode);
      if (!pixCopiaECola || !qrCodeDataUri)
        throw new PaymentProviderError('A Efí não devolveu o QR Code.', 502, 'resposta_invalida');
      return { txid, pixCopiaECola, qrCodeDataUri, expiresAt: state.expiresAt };
    },

    getPix,

    async cancelPix(txid) {
      try {
        return pixState(
          txid,
          await call(pix, 'PATCH', cobPath(txid), 'auth', { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }),
        );
      } catch (err) {
        // A charge paid (or already removed) meanwhile cannot be removed: answer what it became.
        if (err instanceof PaymentProviderError && err.status === 400) return getPix(txid);
        throw err;
      }
    },

    async refundPix({ endToEndId, refundId, amountCents }) {
      const answer = await call(pix, 'PUT', devolucaoPath(endToEndId, refundId), 'auth', {
        valor: reaisString(amountCents),
      });
      const status = refundStatusOf(answer.status);
      return {
        refundId: str(answer.id) ?? refundId,
        status,
        amountCents: centsFrom(answer.valor),
        raw: answer,
      };
    },

    async refundStatus({ endToEndId, refundId }) {
      const answer = await call(pix, 'GET', devolucaoPath(endToEndId, refundId), 'read');
      const status = refundStatusOf(answer.status);
      const reason = str(answer.motivo);
      return {
        refundId: str(answer.id) ?? refundId,
        status,
        ...(status === 'NAO_REALIZADO' && reason ? { reason } : {}),
        raw: answer,
      };
    },

    async registerPixWebhook(url) {
      // Without mTLS on our side, the secret in the URL is the only thing that authenticates Efí.
      if (!/[?&]hmac=[^&]+/.test(url))
        throw new PaymentProviderError(
          'A URL do webhook Pix precisa do segredo (?hmac=…).',
          400,
          'webhook_sem_segredo',
        );
      await call(pix, 'PUT', webhookPath, 'auth', { webhookUrl: url }, { 'x-skip-mtls-checking': 'true' });
      const registered = await getPixWebhook();
      if (!registered)
        throw new PaymentProviderError('A Efí não manteve o webhook Pix registrado.', 502, 'webhook_ausente');
      if (registered.url !== url)
        throw new PaymentProviderError(
          'O webhook Pix registrado na Efí aponta para outro endereço.',
          502,
          'webhook_divergente',
        );
    },

    getPixWebhook,
  };
}
