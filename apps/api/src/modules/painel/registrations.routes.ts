import { StaffTransferRequestSchema, TransferStatusSchema } from '@passada/core/contracts/after-sale';
import { IdParamSchema } from '@passada/core/contracts/common';
import {
  type PainelRegistrationDetail,
  PainelRegistrationDetailSchema,
  RegistrationCancelSchema,
  RegistrationStaffChangeSchema,
} from '@passada/core/contracts/painel';
import { centsToReais } from '@passada/core/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../plugins/errors.ts';
import { audited, auditedAfter, PAINEL_ERRORS } from '../staff/index.ts';
import { type ParticipantView, participantView, participantWire } from './participant-wire.ts';

const RegistrationIdSchema = IdParamSchema;

/** One registration's page in the back office and its cancellation (with the refund of its charge). */
export const registrationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: inscrições'];

  async function detail(
    id: number,
    view: ParticipantView,
    refunds?: Parameters<typeof app.registrationsAdmin.refundByPayer>[1],
  ): Promise<PainelRegistrationDetail> {
    const [row] = await app.registrationsAdmin.participants(null, { ids: [id] });
    if (!row) throw notFound('Inscrição não encontrada.');
    const [event, charge, refund, together] = await Promise.all([
      app.events.findEventRow(row.eventId),
      app.payments.chargeById(row.chargeId),
      app.payments.refundOf(row.chargeId),
      app.registrationsAdmin.participants(null, { chargeId: row.chargeId }),
    ]);
    const checkins = await app.registrationsAdmin.checkins(together.map((r) => r.id));
    // What changed after the sale, only when something did (docs/decisions/0041).
    const history = (await app.registrationsAdmin.afterSale.history([id])).get(id);
    const mine = checkins.find((c) => c.registrationId === id);
    const pickedUp = checkins[0];
    const impedimento = row.cancelledAt
      ? 'Esta inscrição já foi cancelada.'
      : row.orderId !== null
        ? `Esta inscrição foi paga com o pedido nº ${row.orderId}: cancele o pedido, que devolve o pagamento inteiro e cancela as inscrições dele.`
        : pickedUp
          ? `O kit da inscrição nº ${pickedUp.registrationId} já foi retirado: a inscrição não pode ser cancelada.`
          : charge?.status !== 'CONCLUIDA'
            ? 'O pagamento desta inscrição não está confirmado: não há o que devolver.'
            : null;
    // What a cancellation returns (or, just cancelled, returned), by payer after a transfer.
    const giveBack =
      refunds || impedimento === null ? await app.registrationsAdmin.refundByPayer(id, refunds) : null;
    return {
      ...(history ? { historico: history } : {}),
      inscricao: participantWire(row, mine, view),
      evento: { id: row.eventId, nome: event?.name ?? '' },
      pagamento: {
        txid: charge?.txid ?? '',
        metodo: charge?.method === 'cartao' || charge?.method === 'gratuito' ? charge.method : 'pix',
        status: charge?.status ?? 'desconhecido',
        valor: centsToReais(charge?.amountCents ?? row.totalCents),
        devolucao: refund
          ? { status: refund.status, valor: centsToReais(refund.amountCents), motivo: refund.reason }
          : null,
      },
      cancela: together
        .filter((r) => r.cancelledAt === null || r.id === id)
        .map((r) => ({ id: r.id, nome_completo: r.fullName })),
      impedimento_cancelamento: impedimento,
      devolucao_cancelamento: giveBack,
    };
  }

  app.get(
    '/registrations/:id/',
    {
      config: { painel: { permission: ['eventos', 'pedidos'] } },
      schema: {
        tags,
        summary: 'Uma inscrição: participante, pagamento, pedido e se pode ser cancelada',
        params: RegistrationIdSchema,
        response: { 200: PainelRegistrationDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => detail(req.params.id, participantView(req)),
  );

  app.post(
    '/registrations/:id/cancel/',
    {
      // Returns the payment: only roles that may move money.
      config: { painel: { permission: 'devolver_pagamento' } },
      schema: {
        tags,
        summary:
          'Cancelar uma inscrição feita fora de um pedido: devolve o pagamento inteiro, libera vaga e camisa, avisa o comprador',
        params: RegistrationIdSchema,
        body: RegistrationCancelSchema,
        response: { 200: PainelRegistrationDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const reason = req.body.motivo || undefined;
      // A picked-up kit refuses the cancellation inside (registrations-admin.ts kitPickedUp).
      const done = await audited(
        req,
        (tx) => app.registrationsAdmin.cancel(tx, req.params.id, reason),
        (result) => ({
          action: 'cancelado',
          entity: 'inscricao',
          entityId: req.params.id,
          before: { cancelada: false },
          after: {
            cancelada: true,
            motivo: reason ?? null,
            inscricoes: result.cancelled.map((r) => r.id),
            devolucao: centsToReais(result.refunds.reduce((sum, r) => sum + r.amountCents, 0)),
          },
        }),
      );
      // The money goes back only once the cancellation committed; a failure is retried by reconciliation.
      for (const refund of done.refunds) await app.payments.sendRefund(refund);
      return detail(req.params.id, participantView(req), done.refunds);
    },
  );

  app.post(
    '/registrations/:id/alterar/',
    {
      // Places and shirts of an event: who runs events.
      config: { painel: { permission: 'eventos' } },
      schema: {
        tags,
        summary:
          'Trocar a distância e/ou o tamanho da camisa de uma inscrição, com as regras de uma venda nova (vagas, lista de espera, idade, estoque de camisas); sem cobrança nem devolução',
        params: RegistrationIdSchema,
        body: RegistrationStaffChangeSchema,
        response: { 200: PainelRegistrationDetailSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      await audited(
        req,
        (tx) => app.registrationsAdmin.change(tx, req.params.id, req.body),
        (result) => ({
          action: 'alterado',
          entity: 'inscricao',
          entityId: req.params.id,
          before: result.before,
          after: result.after,
        }),
      );
      return detail(req.params.id, participantView(req));
    },
  );

  // Staff acting for the runner who asked them (docs/decisions/0083): the runner's own transfer, through
  // the same rules (deadline, fee, kit not picked up, the new runner's checks) and the same invitation,
  // which the new runner completes and pays; audited with how the runner asked, never the CPF or e-mail.
  const TRANSFER = { painel: { permission: 'eventos' } } as const;

  app.get(
    '/registrations/:id/transferencia/',
    {
      config: TRANSFER,
      schema: {
        tags,
        summary: 'Se a inscrição pode ser transferida agora, a taxa e a transferência pendente',
        params: RegistrationIdSchema,
        response: { 200: TransferStatusSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => app.registrationsAdmin.transfer.status(req.params.id),
  );

  app.post(
    '/registrations/:id/transferir/',
    {
      config: TRANSFER,
      schema: {
        tags,
        summary:
          'Transferir a inscrição a pedido do corredor: a nova pessoa recebe o convite e conclui (e paga a taxa), como na transferência pelo site',
        params: RegistrationIdSchema,
        body: StaffTransferRequestSchema,
        response: { 201: TransferStatusSchema, ...PAINEL_ERRORS },
      },
    },
    async (req, reply) => {
      const { motivo, ...to } = req.body;
      const status = await app.registrationsAdmin.transfer.request(req.params.id, to);
      await auditedAfter(req, [
        {
          action: 'transferencia_pedida',
          entity: 'inscricao',
          entityId: req.params.id,
          after: { para: to.nome_completo, motivo },
        },
      ]);
      return reply.status(201).send(status);
    },
  );

  app.post(
    '/registrations/:id/transferencia/cancelar/',
    {
      config: TRANSFER,
      schema: {
        tags,
        summary: 'Desfazer a transferência pendente da inscrição (o convite deixa de valer)',
        params: RegistrationIdSchema,
        response: { 200: TransferStatusSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const status = await app.registrationsAdmin.transfer.cancel(req.params.id);
      await auditedAfter(req, [
        { action: 'transferencia_desfeita', entity: 'inscricao', entityId: req.params.id },
      ]);
      return status;
    },
  );
};
