import { formatStoreDateTime } from '@passada/core/calendar';
import type { LotteryEntry } from '@passada/core/contracts/lottery';
import { registrationStartToSearch } from '@passada/core/events';
import { plural } from '@passada/core/plural';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { FormField, FormStatus, primaryButtonClass, SelectField } from '../../../components/form-field.tsx';
import { cpfMask, MaskedField } from '../../../components/masked-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { useOpening } from '../../../lib/opening.ts';
import { useSession } from '../../../lib/session.tsx';
import { lotteryQuery, myLotteryEntriesQuery, useEnterLottery } from '../api/lottery-api.ts';

const boxClass =
  'mt-6 rounded-lg border border-brand-200 bg-brand-50 p-4 dark:border-brand-800 dark:bg-brand-950';

const when = (iso: string) => formatStoreDateTime(new Date(iso));

/**
 * The registration form for a winner's place, its category already chosen: "for me" when the entry is in
 * the account holder's own name, so the form starts from the profile.
 */
function payLink(eventId: number, entry: LotteryEntry, accountName: string | undefined): string {
  const same = (a: string) => a.trim().toLocaleLowerCase('pt-BR');
  const start = {
    paraMim: accountName !== undefined && same(accountName) === same(entry.nome_completo),
    eventoId: eventId,
    categorias: [entry.categoria],
  };
  return `/eventos/register/${eventId}/finalizar?${registrationStartToSearch(start)}`;
}

/** One entry's result, as its runner reads it. */
function EntryResult({
  eventId,
  entry,
  accountName,
}: {
  eventId: number;
  entry: LotteryEntry;
  accountName: string | undefined;
}) {
  const who = `${entry.nome_completo} (${entry.cpf_mascarado}, ${entry.categoria_nome}, inscrição nº ${entry.id})`;
  switch (entry.estado) {
    case 'inscrito':
      return <li>{who}: inscrito(a) no sorteio. O resultado sai por e-mail e aqui, depois do sorteio.</li>;
    case 'sorteado':
      return (
        <li>
          <strong>{who}: sorteado(a)!</strong> A vaga está reservada até {when(entry.pagar_ate!)}. Faça a
          inscrição com o mesmo CPF, na categoria {entry.categoria_nome}, e pague dentro do prazo.{' '}
          <Link
            to={payLink(eventId, entry, accountName)}
            aria-label={`Pagar minha vaga: ${entry.nome_completo}, ${entry.categoria_nome}`}
            className="font-semibold underline"
          >
            Pagar minha vaga
          </Link>
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
  const { token, profile } = useSession();
  const opening = useOpening(eventId);
  const isLottery = opening?.modo === 'sorteio';
  const lottery = useQuery({ ...lotteryQuery(eventId), enabled: isLottery });
  const mine = useQuery({ ...myLotteryEntriesQuery(eventId, token), enabled: isLottery && Boolean(token) });
  const enter = useEnterLottery(eventId);
  // The signed-in runner's own name to start with (a winner pays as this person, usually).
  const [form, setForm] = useState({ nome: '', cpf: '', nascimento: '', categoria: '' });
  const [nameTouched, setNameTouched] = useState(false);
  const nome = nameTouched ? form.nome : form.nome || profile?.full_name || '';
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);

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
    try {
      await enter.mutateAsync({
        nome_completo: nome,
        cpf: form.cpf,
        data_nascimento: form.nascimento,
        categoria: Number(chosen),
      });
      setStatus({
        message: `Inscrição no sorteio feita. Enviamos a confirmação para ${profile?.email ?? 'o e-mail da sua conta'}.`,
        tone: 'success',
      });
      setForm((f) => ({ ...f, nome: '', nascimento: '' }));
      setNameTouched(true);
    } catch (error) {
      if (error instanceof ApiRequestError) setErrors(error.body?.errors ?? {});
      setStatus({
        message:
          error instanceof ApiRequestError
            ? (error.body?.detail ?? 'Não foi possível fazer a inscrição no sorteio.')
            : 'Não foi possível fazer a inscrição no sorteio. Tente novamente.',
        tone: 'error',
      });
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
        nada. Serão sorteadas {plural(l.vagas, 'vaga', 'vagas')}; quem for sorteado tem{' '}
        {plural(l.horas_para_pagar, 'hora', 'horas')} para fazer a inscrição e pagar. Cada pessoa (CPF) recebe
        no máximo uma vaga, e o kit só é entregue a quem mostrar um documento com foto desse CPF.{' '}
        {plural(l.inscritos, 'inscrito', 'inscritos')} até agora.
      </p>

      {mine.data && mine.data.length > 0 ? (
        <>
          <h3 className="mt-4 font-semibold">Suas inscrições no sorteio</h3>
          <ul className="mt-1 list-disc pl-5">
            {mine.data.map((e) => (
              <EntryResult key={e.id} eventId={eventId} entry={e} accountName={profile?.full_name} />
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
              value={nome}
              onChange={(e) => {
                setNameTouched(true);
                setForm({ ...form, nome: e.target.value });
              }}
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
            <p className="text-sm">
              O resultado vai para o e-mail da sua conta{profile ? <> ({profile.email})</> : null}.
            </p>
            <button
              type="submit"
              disabled={enter.isPending}
              className={`${primaryButtonClass} justify-self-start`}
            >
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
      <details className="mt-1">
        <summary className="cursor-pointer font-semibold">Como refazer o cálculo do sorteio</summary>
        <p className="mt-1">
          Antes de as inscrições fecharem, publicamos o compromisso: o SHA-256 de uma semente secreta. Depois
          do sorteio publicamos a semente e a lista dos números das inscrições. Para conferir:
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
            blocos de 4 bytes (big-endian) e embaralhe as posições da lista com Fisher–Yates, de i = n−1 até
            1: j é o bloco w mod (i+1), usando só blocos w menores que 2³² − (2³² mod (i+1)) (sem viés; os
            outros são descartados);
          </li>
          <li>
            a lista embaralhada é a classificação: os primeiros levam as vagas; uma inscrição cuja categoria
            já não tem vaga é pulada e continua valendo para os próximos sorteios, que chamam os seguintes da
            classificação para as vagas não pagas no prazo. Cada pessoa (CPF) leva no máximo uma vaga: uma
            inscrição de um CPF que já tem vaga também é pulada.
          </li>
        </ol>
      </details>
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
