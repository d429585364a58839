import type { DeskTeam } from '@passada/core/contracts/teams';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useDeskTeam, useDeskTeams, useHandOutTeamKits } from '../api/teams.ts';

const SITUATION: Record<DeskTeam['membros'][number]['situacao'], string> = {
  pronto: 'Sai com a equipe',
  retirado: 'Já retirado',
  sem_autorizacao: 'Só com o corredor (não autorizou a equipe)',
  recusado: 'Só com o corredor',
};

/**
 * "Kits de uma equipe" (docs/decisions/0067, later): staff pick the team, see whose kits may go with
 * the team's collector, check that person's document, type their name and hand the ready kits at once.
 * Online only: the server decides each kit under its lock.
 */
export function TeamKits({ eventId }: { eventId: number }) {
  const [open, setOpen] = useState(false);
  const teams = useDeskTeams(eventId, open);
  const [teamId, setTeamId] = useState<number | null>(null);
  const team = useDeskTeam(eventId, teamId);
  const handOut = useHandOutTeamKits(eventId);
  const [collector, setCollector] = useState('');
  const [quantity, setQuantity] = useState('');
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const t = team.data;
  const ready = t?.membros.filter((m) => m.situacao === 'pronto') ?? [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!t) return;
    setMessage(null);
    try {
      const done = await handOut.mutateAsync({
        teamId: t.id,
        body: {
          evento: eventId,
          retirado_por_nome: collector,
          item_quantidade_por_kit: quantity === '' ? null : Number(quantity.replace(',', '.')),
        },
      });
      setCollector('');
      setMessage({
        text: `${done.entregues} ${done.entregues === 1 ? 'kit entregue' : 'kits entregues'} a ${collector.trim()}.`,
        tone: 'success',
      });
    } catch (err) {
      setMessage({ text: errorMessage(err), tone: 'error' });
    }
  };
  if (!open)
    return (
      <button type="button" className={`${secondaryButtonClass} mt-6`} onClick={() => setOpen(true)}>
        Kits de uma equipe
      </button>
    );
  return (
    <section
      aria-labelledby="kits-equipe"
      className="mt-6 rounded-lg border border-stone-300 p-4 dark:border-stone-700"
    >
      <h2 id="kits-equipe" className="text-lg font-semibold">
        Kits de uma equipe
      </h2>
      {teams.error ? <FormStatus message={errorMessage(teams.error)} tone="error" /> : null}
      {teams.data?.length === 0 ? <p>Nenhuma equipe neste evento.</p> : null}
      {teams.data?.length ? (
        <SelectField
          label="Equipe"
          value={teamId ?? ''}
          onChange={(e) => {
            setMessage(null);
            setTeamId(e.target.value === '' ? null : Number(e.target.value));
          }}
        >
          <option value="">Selecione</option>
          {teams.data.map((x) => (
            <option key={x.id} value={x.id}>
              {x.nome} ({x.prontos} de {x.membros} prontos)
            </option>
          ))}
        </SelectField>
      ) : null}
      {t ? (
        <>
          <p className="mt-3 text-sm">
            Capitão: {t.capitao ?? 'conta excluída'} · código <span className="font-mono">{t.codigo}</span>
          </p>
          <ul className="mt-2 flex flex-col gap-1 text-sm" aria-label={`Membros da equipe ${t.nome}`}>
            {t.membros.map((m) => (
              <li key={m.inscricao}>
                <strong>{m.nome}</strong> (nº {m.inscricao}) · {m.categorias.join(', ')} ·{' '}
                {SITUATION[m.situacao]}
                {m.motivo ? `: ${m.motivo}` : ''}
                {m.retirada?.retirado_por_nome ? ` (por ${m.retirada.retirado_por_nome})` : ''}
              </li>
            ))}
          </ul>
          {ready.length > 0 ? (
            <form onSubmit={(e) => void submit(e)} noValidate className="mt-3 flex flex-col gap-3">
              <p className="text-sm">Confira o documento com foto de quem retira pela equipe.</p>
              <FormField
                label="Nome de quem retira pela equipe"
                value={collector}
                onChange={(e) => setCollector(e.target.value)}
              />
              {t.item ? (
                <FormField
                  label={`${t.item.texto} por kit${t.item.unidade ? ` (${t.item.unidade})` : ''}${t.item.exigido ? '' : ' (opcional)'}`}
                  inputMode="decimal"
                  value={quantity}
                  onChange={(e) => setQuantity(e.target.value)}
                />
              ) : null}
              <button type="submit" className={primaryButtonClass} disabled={handOut.isPending}>
                Entregar {ready.length} {ready.length === 1 ? 'kit' : 'kits'} da equipe
              </button>
            </form>
          ) : (
            <p className="mt-3 text-sm">Nenhum kit desta equipe pode sair com ela agora.</p>
          )}
        </>
      ) : null}
      <div className="mt-2">
        <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      </div>
    </section>
  );
}
