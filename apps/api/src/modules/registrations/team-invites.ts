import { EmailSchema } from '@passada/core/contracts/accounts';
import type { MyTeam, TeamInviteView } from '@passada/core/contracts/teams';
import type { Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { columnKey, readCsvRows } from '../../plugins/csv-read.ts';
import { badRequest, HttpError, notFound } from '../../plugins/errors.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import * as repo from './team-invites.repository.ts';
import { newTeamLinkToken } from './team-link-token.ts';
import { lockCaptain, lockCaptainTeam } from './teams.repository.ts';
import { invitePath } from './teams.ts';

const NAME_TITLES = new Set(['nome', 'nome completo']);
const EMAIL_TITLES = new Set(['e-mail', 'email']);

/** An address as the captain sees it before the person confirmed: "ma***@example.com". */
export const maskEmail = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
};

/**
 * A captain's list of members (docs/decisions/0075): read from a CSV (the pt-BR Excel convention of the
 * shop's exports, or commas), each person e-mailed a link to confirm or refuse. The captain gave the name
 * and e-mail, the person did not: a refusal erases them, an unanswered invitation is erased after
 * `TEAM_INVITE_DAYS`, and the captain sees the address masked.
 */
export function createTeamInvites(
  deps: Pick<RegistrationsServiceDeps, 'db' | 'now' | 'env' | 'jobs' | 'mail' | 'log'>,
) {
  /** The people of the list, or a 400 naming each bad line; nothing is sent when one is bad. */
  function readList(content: string) {
    const [titles, ...body] = readCsvRows(
      content,
      'Não foi possível ler a lista: envie um CSV (do Excel ou outra planilha) com as colunas Nome e E-mail.',
    );
    if (!titles || body.length === 0)
      throw badRequest('A lista não tem ninguém depois da linha de títulos (Nome; E-mail).', 'arquivo_vazio');
    if (body.length > deps.env.TEAM_INVITES_PER_IMPORT_MAX)
      throw badRequest(
        `A lista tem ${body.length} linhas; o limite é ${deps.env.TEAM_INVITES_PER_IMPORT_MAX}.`,
        'arquivo_grande_demais',
      );
    const keys = titles.map(columnKey);
    const nameAt = keys.findIndex((k) => NAME_TITLES.has(k));
    const emailAt = keys.findIndex((k) => EMAIL_TITLES.has(k));
    if (nameAt < 0 || emailAt < 0)
      throw badRequest(
        'A primeira linha da lista precisa das colunas "Nome" e "E-mail".',
        'colunas_ausentes',
      );
    const problems: string[] = [];
    const people = new Map<string, { name: string; email: string }>();
    body.forEach((cells, i) => {
      const line = i + 2;
      const name = (cells[nameAt] ?? '').replace(/\s+/g, ' ').trim();
      const email = EmailSchema.safeParse(cells[emailAt] ?? '');
      if (name.length < 2 || name.length > 120)
        problems.push(`Linha ${line}: informe o nome (até 120 letras).`);
      else if (!email.success) problems.push(`Linha ${line}: e-mail inválido.`);
      else if (!people.has(email.data)) people.set(email.data, { name, email: email.data });
    });
    if (problems.length > 0) {
      const shown = problems.slice(0, 10).join(' ') + (problems.length > 10 ? ' …' : '');
      const detail = `Corrija a lista e envie de novo (nenhum convite foi enviado). ${shown}`;
      throw new HttpError(400, detail, 'linhas_invalidas', { arquivo: detail });
    }
    return [...people.values()];
  }

  /** POST /api/equipes/:id/convites/: the list read, each new address invited once. */
  async function importList(user: AuthUser, teamId: number, content: string) {
    const people = readList(content);
    const made = await deps.db.transaction(async (tx) => {
      if (!(await lockCaptainTeam(tx, user.id, teamId))) throw notFound('Equipe não encontrada.');
      // One captain's invitations counted under their own lock: two lists at once never pass the cap.
      await lockCaptain(tx, user.id);
      const now = deps.now();
      const sent = await repo.sentSince(tx, user.id, new Date(now.getTime() - 86_400_000));
      if (sent + people.length > deps.env.TEAM_INVITES_PER_CAPTAIN_PER_DAY)
        throw new HttpError(
          429,
          `Você pode enviar até ${deps.env.TEAM_INVITES_PER_CAPTAIN_PER_DAY} convites por dia; restam ${Math.max(0, deps.env.TEAM_INVITES_PER_CAPTAIN_PER_DAY - sent)} hoje.`,
          'limite_convites',
        );
      const rows = await repo.insertInvites(
        tx,
        people.map((p) => ({ teamId, ...p, token: newTeamLinkToken(), createdAt: now })),
      );
      for (const row of rows) await deps.jobs.send('mail.team-invite', { inviteId: row.id }, { tx });
      return rows.length;
    });
    return { convidados: made, ja_convidados: people.length - made };
  }

  /** The invitation's e-mail, while it waits for an answer. */
  async function sendInvite(inviteId: number): Promise<void> {
    const row = await repo.inviteWithTeam(deps.db, { id: inviteId });
    if (!row || row.invite.status !== 'pendente') return;
    const link = `${deps.env.publicUrl}/equipes/convite/${row.invite.token}`;
    const who = row.captainName ?? 'O capitão';
    await deps.mail.send({
      to: row.invite.email,
      subject: `${deps.env.STORE_NAME}: convite para a equipe ${row.team.name}`,
      text: [
        `Olá, ${row.invite.name}!`,
        '',
        `${who} convidou você para a equipe ${row.team.name}${row.eventName ? ` na ${row.eventName}` : ''}.`,
        `Confirme ou recuse pelo link: ${link}`,
        '',
        `O seu nome e este e-mail foram informados pelo capitão. Se você recusar, ou não responder em ${deps.env.TEAM_INVITE_DAYS} dias, eles são apagados. Ao confirmar, o capitão vê que você aceitou; a inscrição na corrida você faz com os seus próprios dados.`,
      ].join('\n'),
    });
  }

  async function view(token: string): Promise<TeamInviteView> {
    const row = await repo.inviteWithTeam(deps.db, { token });
    if (!row) throw notFound('Convite não encontrado: ele pode ter sido recusado ou ter expirado.');
    return {
      equipe: row.team.name,
      evento: row.eventName,
      capitao: row.captainName,
      nome: row.invite.name,
      situacao: row.invite.status,
      convite: row.invite.status === 'confirmado' ? invitePath(row.team) : null,
    };
  }

  /** The person answers: confirmed, or refused and erased (answers null then). */
  async function answer(token: string, accepted: boolean): Promise<TeamInviteView | null> {
    await deps.db.transaction(async (tx: Tx) => {
      const row = await repo.inviteWithTeam(tx, { token });
      if (!row) throw notFound('Convite não encontrado: ele pode ter sido recusado ou ter expirado.');
      if (accepted) await repo.confirm(tx, row.invite.id, deps.now());
      else await repo.remove(tx, row.invite.id);
    });
    return accepted ? view(token) : null;
  }

  /** The captain's view of their teams' invitations. */
  async function ofTeams(teamIds: number[]): Promise<Array<MyTeam['convites'][number] & { teamId: number }>> {
    return (await repo.invitesOf(deps.db, teamIds)).map((r) => ({
      teamId: r.teamId,
      nome: r.name,
      email: maskEmail(r.email),
      situacao: r.status,
      enviado_em: r.createdAt.toISOString(),
    }));
  }

  /** The nightly erasure of invitations nobody answered. */
  async function eraseUnanswered(): Promise<number> {
    return repo.eraseUnansweredBefore(
      deps.db,
      new Date(deps.now().getTime() - deps.env.TEAM_INVITE_DAYS * 86_400_000),
    );
  }

  return { importList, sendInvite, view, answer, ofTeams, eraseUnanswered };
}

export type TeamInvites = ReturnType<typeof createTeamInvites>;
