import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ProofDecision, ProofReview } from '@passada/core/contracts/price-rules';
import { centsToReais } from '@passada/core/money';
import { type PriceRuleAudience, proofDocumentCheck } from '@passada/core/price-rules';
import { eq, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { ensurePrivateDir, writePrivateFile } from '../../ops/private-files.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { documentImage } from '../../plugins/uploaded-images.ts';
import { proofRefusedMail } from './after-sale-mail.ts';
import * as proofsRepo from './price-rule-proofs.repository.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

const PROOF_NOT_FOUND = 'Comprovante não encontrado. Envie o arquivo de novo.';

/** A PDF starts with these bytes whatever wrote it. */
const isPdf = (buffer: Buffer) => buffer.subarray(0, 5).toString('latin1') === '%PDF-';

export interface ProofsDeps {
  db: Db;
  now: () => Date;
  env: RegistrationsServiceDeps['env'];
  mail: RegistrationsServiceDeps['mail'];
  users: RegistrationsServiceDeps['users'];
  /** Where the files are kept (DATA_DIR/comprovantes), never under the public media. */
  dir: string;
  maxPixels: number;
  events: Pick<
    RegistrationsServiceDeps['events'],
    'priceRules' | 'findEventRow' | 'findCategories' | 'currentPrices'
  >;
  jobs: RegistrationsServiceDeps['jobs'];
}

/**
 * The proofs of price rules (docs/decisions/0068): sent by the account before paying, kept private,
 * linked to the paid registration and reviewed by staff in one queue.
 */
export function createPriceRuleProofs(deps: ProofsDeps) {
  /**
   * Keeps a proof the account sent: a PDF as it is, a photo re-encoded by the photo pipeline (its
   * header checked before decoding, so a decompression bomb is refused). Answers its token.
   */
  async function accept(userId: number, buffer: Buffer) {
    let body: Buffer;
    let mediaType: string;
    if (isPdf(buffer)) {
      body = buffer;
      mediaType = 'application/pdf';
    } else {
      try {
        body = await documentImage(buffer, deps.maxPixels);
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 415)
          throw new HttpError(
            415,
            'Envie uma foto (JPEG, PNG, WebP ou HEIC) ou um PDF.',
            'formato_nao_suportado',
          );
        throw err;
      }
      mediaType = 'image/webp';
    }
    const token = randomBytes(18).toString('base64url');
    const fileName = `${token}.${mediaType === 'application/pdf' ? 'pdf' : 'webp'}`;
    await ensurePrivateDir(deps.dir);
    await writePrivateFile(path.join(deps.dir, fileName), body);
    await proofsRepo.insertProof(deps.db, { token, userId, fileName, mediaType, bytes: body.length });
    return { comprovante: token, tipo: mediaType, bytes: body.length };
  }

  /** The proof a draft names: this account's, not yet taken by a registration. Answers its token. */
  async function checkForDraft(tx: Tx, userId: number, token: string): Promise<string> {
    const row = await proofsRepo.proofByToken(tx, token);
    if (!row || row.userId !== userId || row.registrationId !== null || !row.fileName)
      throw badRequest(PROOF_NOT_FOUND, 'comprovante_invalido', { comprovante: PROOF_NOT_FOUND });
    return token;
  }

  /**
   * The paid registration takes its proof, pending review until `reviewHours` from now. A proof another
   * registration took meanwhile (the same file on two charges) leaves this one pending without a file:
   * staff see it and ask the runner.
   */
  async function link(
    tx: Tx,
    registrationId: number,
    rule: { id: number; proof: string | null; reviewHours: number; consent?: string },
  ): Promise<void> {
    const dueAt = new Date(deps.now().getTime() + rule.reviewHours * 3_600_000);
    const values = {
      registrationId,
      ruleId: rule.id,
      status: 'pendente',
      dueAt,
      ...(rule.consent ? { consentVersion: rule.consent, consentAt: deps.now() } : {}),
    } as const;
    if (rule.proof && (await proofsRepo.takeProof(tx, rule.proof, values))) return;
    await proofsRepo.insertProof(tx, {
      ...values,
      token: randomBytes(18).toString('base64url'),
      fileName: null,
      mediaType: 'nenhum',
      bytes: 0,
    });
  }

  async function reviewsOf(db: Db | Tx, where: Array<SQL | undefined>) {
    const rows = await proofsRepo.reviewRows(db, where);
    const rules = await deps.events.priceRules.names(db, [
      ...new Set(rows.flatMap((r) => (r.proof.ruleId ? [r.proof.ruleId] : []))),
    ]);
    const categories = await repo.categoriesOfMany(
      db,
      rows.map((r) => r.registration.id),
    );
    return rows.map(({ proof, registration, eventName }): ProofReview => {
      const rule = rules.get(proof.ruleId ?? 0) ?? { name: '—', audience: 'lista' as PriceRuleAudience };
      return {
        id: proof.id,
        inscricao: registration.id,
        evento: { id: registration.eventId, nome: eventName },
        nome_completo: registration.fullName,
        data_nascimento: registration.birthDate,
        cpf: registration.cpf,
        categorias: (categories.get(registration.id) ?? []).map((c) => c.name),
        regra: { id: proof.ruleId ?? 0, nome: rule.name, publico: rule.audience },
        pago: centsToReais(registration.totalCents),
        situacao: proof.status as ProofReview['situacao'],
        prazo: proof.dueAt?.toISOString() ?? null,
        enviado_em: proof.createdAt.toISOString(),
        analisado_em: proof.reviewedAt?.toISOString() ?? null,
        analisado_por: proof.reviewedBy,
        motivo: proof.reason,
        arquivo: proof.fileName ? `/api/painel/comprovantes/${proof.id}/arquivo/` : null,
        tipo: proof.mediaType,
      };
    });
  }

  /** The review queue: pending proofs first by their deadline, or those of one status; of one event or all. */
  function queue(filter: { eventId?: number | undefined; status: ProofReview['situacao'] }) {
    const { status, eventId } = proofsRepo.proofColumns;
    return reviewsOf(deps.db, [
      eq(status, filter.status),
      filter.eventId === undefined ? undefined : eq(eventId, filter.eventId),
    ]);
  }

  /** The file of a proof for staff: its path and type; 404 once erased. */
  async function file(id: number) {
    const row = await proofsRepo.proofById(deps.db, id);
    if (!row?.fileName || row.registrationId === null) throw notFound('Comprovante não encontrado.');
    const file = path.join(deps.dir, row.fileName);
    // Gone from the disk (a disk lost without a backup, a file removed by hand): said, not a server error.
    if (!existsSync(file))
      throw notFound('O arquivo deste comprovante não existe mais: peça outro ao participante.');
    return { path: file, type: row.mediaType };
  }

  /**
   * Staff approve or refuse a pending proof, once (a second decision is 409), a refusal only within the
   * rule's review time (409 `prazo_encerrado` after). A refusal tells the runner why, by e-mail and by
   * WhatsApp when they opted in, and what they may do: pay the difference or leave with everything back.
   */
  async function decide(
    tx: Tx,
    id: number,
    decision: ProofDecision,
    staffName: string,
  ): Promise<ProofReview> {
    const row = await proofsRepo.proofById(tx, id, true);
    if (!row || row.registrationId === null) throw notFound('Comprovante não encontrado.');
    if (row.status !== 'pendente') throw conflict('Este comprovante já foi analisado.', 'ja_analisado');
    // The review time is the organiser's promise to the runner: past it with no decision, the special
    // price stands (the desk still asks for the document); a late approval only confirms it.
    if (decision.decisao === 'recusar' && row.dueAt && row.dueAt <= deps.now())
      throw conflict(
        'O prazo de análise deste comprovante terminou: o preço especial vale. Confira o documento na retirada do kit.',
        'prazo_encerrado',
      );
    await proofsRepo.setDecision(tx, id, {
      status: decision.decisao === 'aprovar' ? 'aprovado' : 'recusado',
      reason: decision.decisao === 'recusar' ? decision.motivo : null,
      reviewedAt: deps.now(),
      reviewedBy: staffName,
    });
    if (decision.decisao === 'recusar') {
      await deps.jobs.send('mail.proof-refused', { registrationId: row.registrationId }, { tx });
      // Only to a runner who opted in at registration (the job checks).
      await deps.jobs.send('whatsapp.proof-refused', { registrationId: row.registrationId }, { tx });
    }
    const [after] = await reviewsOf(tx, [eq(proofsRepo.proofColumns.id, id)]);
    if (!after) throw notFound('Comprovante não encontrado.');
    return after;
  }

  /** The proof of registrations, as the desk and the runner's page show it: status only, never the file. */
  async function statusOf(db: Db | Tx, registrationIds: number[]) {
    if (registrationIds.length === 0) return new Map<number, { status: string; reason: string | null }>();
    const rows = await proofsRepo.statusOf(db, registrationIds);
    return new Map(rows.map((r) => [r.id ?? 0, { status: r.status, reason: r.reason }]));
  }

  /**
   * What the races still under a rule owe to reach their lots' prices now: each at its lot in force less
   * what it was paid, never below zero. The refusal's messages say it and the difference's charge asks it.
   */
  async function differenceNow(
    db: Db | Tx,
    ruled: ReadonlyArray<{ id: number; priceCents: number }>,
  ): Promise<number> {
    if (ruled.length === 0) return 0;
    const categories = await deps.events.findCategories(
      ruled.map((c) => c.id),
      db,
    );
    const now = await deps.events.currentPrices(categories, db);
    return ruled.reduce(
      (sum, c) => sum + Math.max(0, (now.get(c.id)?.priceCents ?? c.priceCents) - c.priceCents),
      0,
    );
  }

  /**
   * What a refusal tells the runner: the registration, its event, the rule's name, the reason and the
   * difference to the lot's price now; null when the proof is no longer refused (or the registration gone).
   */
  async function refusalOf(registrationId: number) {
    const registration = await repo.findById(deps.db, registrationId);
    const [proof] = await proofsRepo.statusOf(deps.db, [registrationId]);
    if (!registration || registration.cancelledAt || proof?.status !== 'recusado') return null;
    const event = await deps.events.findEventRow(registration.eventId);
    const ruled = (await repo.categoriesWithRules(deps.db, registrationId)).filter(
      (c) => c.priceRuleId !== null,
    );
    const ruleId = ruled[0]?.priceRuleId;
    if (!event || !ruleId) return null;
    const rule = (await deps.events.priceRules.names(deps.db, [ruleId])).get(ruleId);
    return {
      registration,
      event,
      ruleName: rule?.name ?? 'preço especial',
      reason: proof.reason ?? '',
      differenceCents: await differenceNow(deps.db, ruled),
      page: `${deps.env.publicUrl}/eventos/register/${event.id}/ja-me-inscrevi`,
    };
  }

  /** The refusal's e-mail job: the runner and, when someone else, the account that paid. */
  async function sendRefused(registrationId: number): Promise<void> {
    const refusal = await refusalOf(registrationId);
    if (!refusal) return;
    const { registration } = refusal;
    const account =
      registration.accountUserId === null ? null : await deps.users.findContact(registration.accountUserId);
    const to = [...new Set([registration.email, account?.email].filter((e): e is string => !!e))];
    for (const address of to)
      await deps.mail.send(
        proofRefusedMail({
          env: deps.env,
          to: address,
          registrationId,
          runnerName: registration.fullName,
          eventName: refusal.event.name,
          ruleName: refusal.ruleName,
          reason: refusal.reason,
          differenceCents: refusal.differenceCents,
          page: refusal.page,
        }),
      );
  }

  /**
   * The registration's proof let go (its holder changed): unlinked at once, its file erased by a job
   * after the commit (nothing is erased if the transaction rolls back).
   */
  async function detach(tx: Tx, registrationId: number): Promise<void> {
    const fileName = await proofsRepo.detachProof(tx, registrationId);
    if (fileName) await deps.jobs.send('privacy.proof-file', { fileName }, { tx });
  }

  /**
   * An account erased (docs/decisions/0057): the documents it sent and its registrations' go, each file
   * by the erasing job after the commit; what staff decided stays on record.
   */
  async function forgetAccount(tx: Tx, userId: number): Promise<void> {
    for (const fileName of await proofsRepo.forgetFilesOfAccount(tx, userId))
      await deps.jobs.send('privacy.proof-file', { fileName }, { tx });
  }

  /**
   * The registration's races leave their special price (a transfer, a paid difference): the rule's marks
   * on the races and on their places go (the cap gets the places back) and the proof is let go.
   */
  async function leaveRule(
    tx: Tx,
    row: { id: number; chargeId: number },
    ruled: ReadonlyArray<{ id: number }>,
  ): Promise<void> {
    await repo.clearPriceRules(tx, row.id);
    await deps.events.priceRules.clearMarks(
      tx,
      row.chargeId,
      ruled.map((c) => c.id),
    );
    await detach(tx, row.id);
  }

  /** The erasing job: the file under the proofs' folder, gone (already gone is fine). */
  async function eraseFile(fileName: string): Promise<void> {
    if (!/^[A-Za-z0-9_-]+\.(webp|pdf)$/.test(fileName)) return;
    await rm(path.join(deps.dir, fileName), { force: true });
  }

  /**
   * The proofs' files of events that ended before `endedBefore` erased, with the PCD answers (a PCD
   * document is health data): the rows stay (what was decided, by whom), the files go. Answers how many.
   */
  async function eraseAfterEvents(endedBefore: string): Promise<number> {
    const files = [
      ...(await proofsRepo.forgetFilesOfEventsEndedBefore(deps.db, endedBefore)),
      // A proof no paid registration took within two days: its payment never came.
      ...(await proofsRepo.forgetUnusedFilesBefore(deps.db, new Date(deps.now().getTime() - 2 * 86_400_000))),
    ];
    for (const fileName of files) await eraseFile(fileName);
    return files.length;
  }

  /** What the kit desk's card says of a special price: its name and whether the document was checked. */
  async function deskView(registrationId: number) {
    const ruled = (await repo.categoriesWithRules(deps.db, registrationId)).find(
      (c) => c.priceRuleId !== null,
    );
    if (!ruled?.priceRuleId) return null;
    const rule = (await deps.events.priceRules.names(deps.db, [ruled.priceRuleId])).get(ruled.priceRuleId);
    const [proof] = await proofsRepo.statusOf(deps.db, [registrationId]);
    return { regra: rule?.name ?? 'Preço especial', documento: proofDocumentCheck(proof?.status) };
  }

  return {
    accept,
    checkForDraft,
    link,
    queue,
    file,
    decide,
    statusOf,
    differenceNow,
    refusalOf,
    sendRefused,
    detach,
    leaveRule,
    forgetAccount,
    eraseFile,
    eraseAfterEvents,
    deskView,
  };
}

export type PriceRuleProofs = ReturnType<typeof createPriceRuleProofs>;
