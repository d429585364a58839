import { formatStoreDateTime } from '@passada/core/calendar';
import type { LotteryEntry, PublicLottery } from '@passada/core/contracts/lottery';
import type { OpeningStatus } from '@passada/core/contracts/opening';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { FormField, FormStatus, primaryButtonClass, SelectField } from '../../../components/form-field.tsx';
import { cpfMask, MaskedField } from '../../../components/masked-field.tsx';
import { ApiRequestError, apiFetch } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.tsx';

const boxClass =
  'mt-6 rounded-lg border border-brand-200 bg-brand-50 p-4 dark:border-brand-800 dark:bg-brand-950';

const when = (iso: string) => formatStoreDateTime(new Date(iso));

/** One entry's result, as its runner reads it. */
function EntryResult({ entry }: { entry: LotteryEntry }) {
  const who = `${entry.nome_completo} (${entry.cpf_mascarado}, ${entry.categoria_nome}, inscrição nº ${entry.id})`;
  switch (entry.estado) {
    case 'inscrito':
      return <li>{who}: inscrito(a) no sorteio. O resultado sai por e-mail e aqui, depois do sorteio.</li>;
    case 'sorteado':
      return (
        <li>
          <strong>{who}: sorteado(a)!</strong> A vaga está reservada até {when(entry.pagar_ate!)}. Faça a
          inscrição abaixo com o mesmo CPF, na categoria {entry.categoria_nome}, e pague dentro do prazo.
        </li>
      );
    case 'pago':
      return <li>{who}: sorteado(a) e inscrição paga. Até a largada!</li>;
    case 'expirado':
      return <li>{who}: sorteado(a), mas o prazo para pagar terminou e a vaga passou ao próximo.</li>;
    default:
      return (
        <li>
          {who}: não sorteado(a) desta vez (posição {entry.posicao} na classificação). Se algum sorteado não
          pagar no prazo, novos sorteios chamam os próximos da classificação e você pode ser sorteado(a)
          depois; avisaremos por e-mail.
        </li>
      );
  }
}

/**
 * The lottery opening on the event page (docs/decisions/0051-lottery-opening.md): the window, the
 * commitment, the runner's sign-up and result, and after the draw the seed, the entry ids and the
 * ranking, with how anyone recomputes it.
 */
export function LotteryBox({
  eventId,
  categories,
}: {
  eventId: number;
  categories: ReadonlyArray<{ id: number; nome: string }>;
}) {
  const { token } = useSession();
  const { data: opening } = useQuery({
    queryKey: ['opening', eventId],
    queryFn: ({ signal }) =>
      apiFetch<OpeningStatus | null>(`/api/events/${eventId}/abertura/`, { signal, auth: false }),
    refetchInterval: 5000,
    retry: false,
  });
  const isLottery = opening?.modo === 'sorteio';
  const lottery = useQuery({
    queryKey: ['sorteio', eventId],
    queryFn: ({ signal }) =>
      apiFetch<PublicLottery>(`/api/events/${eventId}/sorteio/`, { signal, auth: false }),
    enabled: isLottery,
    refetchInterval: 30_000,
  });
  const mine = useQuery({
    queryKey: ['sorteio', eventId, 'minhas', token],
    queryFn: ({ signal }) => apiFetch<LotteryEntry[]>(`/api/events/${eventId}/sorteio/minhas/`, { signal }),
    enabled: isLottery && Boolean(token),
    refetchInterval: 30_000,
  });
  const [form, setForm] = useState({ nome: '', cpf: '', email: '', nascimento: '', categoria: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [sending, setSending] = useState(false);

  if (!isLottery || !lottery.data) return null;
  const l = lottery.data;
  const now = Date.now();
  const entriesOpen =
    now >= Date.parse(l.inscricoes_de) && now < Date.parse(l.inscricoes_ate) && l.sorteios.length === 0;
  const chosen = form.categoria || String(categories[0]?.id ?? '');

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setStatus(null);
    setSending(true);
    try {
      await apiFetch<LotteryEntry>(`/api/events/${eventId}/sorteio/`, {
        method: 'POST',
        body: {
          nome_completo: form.nome,
          cpf: form.cpf,
          email: form.email,
          data_nascimento: form.nascimento,
          categoria: Number(chosen),
        },
      });
      setStatus({
        message: 'Inscrição no sorteio feita. Enviamos a confirmação por e-mail.',
        tone: 'success',
      });
      setForm((f) => ({ ...f, nome: '', email: '', nascimento: '' }));
      void mine.refetch();
      void lottery.refetch();
    } catch (error) {
      if (error instanceof ApiRequestError) setErrors(error.body?.errors ?? {});
      setStatus({
        message:
          error instanceof ApiRequestError
            ? (error.body?.detail ?? 'Não foi possível fazer a inscrição no sorteio.')
            : 'Não foi possível fazer a inscrição no sorteio. Tente novamente.',
        tone: 'error',
      });
    } finally {
      setSending(false);
    }
  }

  return (
    <section aria-labelledby="sorteio" className={boxClass}>
      <h2 id="sorteio" className="text-lg font-bold">
        Inscrições por sorteio
      </h2>
      <p className="mt-2">
        As vagas deste evento são sorteadas. Inscreva-se no sorteio de{' '}
        <strong>{when(l.inscricoes_de)}</strong> até <strong>{when(l.inscricoes_ate)}</strong>, sem pagar
        nada. Serão sorteadas {l.vagas} vagas; quem for sorteado tem {l.horas_para_pagar} horas para fazer a
        inscrição e pagar. Uma inscrição no sorteio por CPF.{' '}
        {l.inscritos === 1 ? '1 inscrito' : `${l.inscritos} inscritos`} até agora.
      </p>

      {mine.data && mine.data.length > 0 ? (
        <>
          <h3 className="mt-4 font-semibold">Suas inscrições no sorteio</h3>
          <ul className="mt-1 list-disc pl-5">
            {mine.data.map((e) => (
              <EntryResult key={e.id} entry={e} />
            ))}
          </ul>
        </>
      ) : null}

      {entriesOpen ? (
        token ? (
          <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 grid gap-3 md:max-w-md">
            <h3 className="font-semibold">Inscrever-se no sorteio</h3>
            <FormField
              label="Nome completo"
              value={form.nome}
              onChange={(e) => setForm({ ...form, nome: e.target.value })}
              error={errors.nome_completo}
              autoComplete="name"
            />
            <MaskedField
              label="CPF"
              mask={cpfMask}
              defaultValue=""
              onChange={(e) => setForm({ ...form, cpf: e.currentTarget.value })}
              error={errors.cpf}
              placeholder="000.000.000-00"
            />
            <FormField
              label="E-mail"
              type="email"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
              error={errors.email}
              autoComplete="email"
            />
            <FormField
              label="Data de nascimento"
              type="date"
              value={form.nascimento}
              onChange={(e) => setForm({ ...form, nascimento: e.target.value })}
              error={errors.data_nascimento}
            />
            <SelectField
              label="Categoria"
              value={chosen}
              onChange={(e) => setForm({ ...form, categoria: e.target.value })}
              error={errors.categoria}
            >
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nome}
                </option>
              ))}
            </SelectField>
            <button type="submit" disabled={sending} className={`${primaryButtonClass} justify-self-start`}>
              Inscrever no sorteio
            </button>
          </form>
        ) : (
          <p className="mt-4">
            <Link
              to={`/login?next=${encodeURIComponent(`/eventos/register/${eventId}`)}`}
              className="font-semibold underline"
            >
              Entre na sua conta
            </Link>{' '}
            para se inscrever no sorteio.
          </p>
        )
      ) : null}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />

      <h3 className="mt-4 font-semibold">Um sorteio que qualquer pessoa pode conferir</h3>
      {l.compromisso ? (
        <p className="mt-1 break-all">
          Compromisso publicado em {when(l.compromisso_em!)}: <code>{l.compromisso}</code>
        </p>
      ) : (
        <p className="mt-1">O compromisso será publicado aqui antes do fim das inscrições no sorteio.</p>
      )}
      <p className="mt-1">
        Antes de as inscrições fecharem, publicamos o compromisso: o SHA-256 de uma semente secreta. Depois do
        sorteio publicamos a semente e a lista dos números das inscrições. Para conferir:
      </p>
      <ol className="mt-1 list-decimal pl-5">
        <li>calcule o SHA-256 da semente: tem de dar exatamente o compromisso publicado antes;</li>
        <li>
          ponha os números das inscrições em ordem crescente, separados por vírgula (por exemplo 3,8,15);
        </li>
        <li>
          a chave do sorteio é o SHA-256 (em hexadecimal) do texto semente + &quot;:&quot; + essa lista;
        </li>
        <li>
          gere números com HMAC-SHA256(chave, &quot;0&quot;), HMAC-SHA256(chave, &quot;1&quot;), … lidos em
          blocos de 4 bytes (big-endian) e embaralhe as posições da lista com Fisher–Yates, de i = n−1 até 1:
          j é o bloco w mod (i+1), usando só blocos w menores que 2³² − (2³² mod (i+1)) (sem viés; os outros
          são descartados);
        </li>
        <li>
          a lista embaralhada é a classificação: os primeiros levam as vagas; uma inscrição cuja categoria já
          não tem vaga é pulada e continua valendo para os próximos sorteios, que chamam os seguintes da
          classificação para as vagas não pagas no prazo.
        </li>
      </ol>
      {l.semente ? (
        <div className="mt-2">
          <p className="break-all">
            Semente: <code>{l.semente}</code>
          </p>
          <p className="mt-1 break-all">Inscrições no sorteio: {l.ids_inscricoes.join(', ')}</p>
          <p className="mt-1 break-all">Classificação: {l.classificacao.join(', ')}</p>
          {l.sorteios.map((s) => (
            <p key={s.numero} className="mt-1 break-all">
              {s.numero}º sorteio: {s.ids.length > 0 ? s.ids.join(', ') : 'nenhuma vaga'}
            </p>
          ))}
        </div>
      ) : null}
    </section>
  );
}
