import type { MessageLogList } from '@passada/core/contracts/painel';
import { useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
} from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  useMessageLog,
  useMessagePreviews,
  useRecordWhatsAppOptOut,
  useWhatsAppOptOuts,
} from '../api/messages.ts';
import { MailLogoSection } from '../components/mail-logo-section.tsx';

/**
 * Permission `equipe`: every message the shop sends, rendered with demo data by the same code the
 * sending jobs run. The HTML part shows in a sandboxed frame (no scripts, no links that navigate the
 * back office), the text part beside it as mail programs without HTML show it.
 */
type LoggedMessage = MessageLogList[number];

const SITUATION: Record<LoggedMessage['situacao'], string> = {
  sent: 'Enviada',
  failed: 'Falhou',
  opted_out: 'Não enviada: o número pediu para parar',
};

/** What Meta's delivery webhook last said (WhatsApp only). */
const DELIVERY: Record<NonNullable<LoggedMessage['entrega']>, string> = {
  sent: 'Saiu do WhatsApp',
  delivered: 'Entregue',
  read: 'Lida',
  failed: 'Não entregue',
};

function deliveryText(m: LoggedMessage): string {
  if (m.entrega) {
    const when = m.entrega_em ? ` em ${formatDateTime(m.entrega_em)}` : '';
    return `${DELIVERY[m.entrega]}${when}${m.erro_entrega ? ` (${m.erro_entrega})` : ''}`;
  }
  if (m.canal === 'whatsapp' && m.situacao === 'sent') return 'Aguardando confirmação do WhatsApp';
  return '—';
}

/** The record of what was sent: every message, whether it went and whether it arrived. */
function MessageLogSection() {
  const [canal, setCanal] = useState<'' | 'email' | 'whatsapp'>('');
  const log = useMessageLog(canal);
  const rows = log.data ?? [];
  return (
    <section aria-labelledby="mensagens-enviadas" className="mb-10">
      <h2 id="mensagens-enviadas" className="mb-2 text-xl font-semibold">
        Mensagens enviadas
      </h2>
      <p className="mb-3 max-w-3xl text-sm text-stone-600 dark:text-stone-400">
        As últimas 200 mensagens: se saíram, quantas tentativas foram feitas e, no WhatsApp, se chegaram ao
        telefone e foram lidas.
      </p>
      <div className="mb-3 max-w-xs">
        <SelectField
          label="Canal"
          value={canal}
          onChange={(e: { target: { value: string } }) =>
            setCanal(e.target.value as '' | 'email' | 'whatsapp')
          }
        >
          <option value="">Todos</option>
          <option value="email">E-mail</option>
          <option value="whatsapp">WhatsApp</option>
        </SelectField>
      </div>
      {log.isError ? <p role="alert">{errorMessage(log.error)}</p> : null}
      {log.isPending ? <p>Carregando…</p> : null}
      {log.isSuccess && rows.length === 0 ? <p>Nenhuma mensagem enviada ainda.</p> : null}
      {rows.length ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Mensagens enviadas, da mais recente para a mais antiga</caption>
            <thead>
              <tr className="border-b border-stone-300 dark:border-stone-700">
                <th scope="col" className="py-2 pr-3">
                  Quando
                </th>
                <th scope="col" className="py-2 pr-3">
                  Canal
                </th>
                <th scope="col" className="py-2 pr-3">
                  Mensagem
                </th>
                <th scope="col" className="py-2 pr-3">
                  Para
                </th>
                <th scope="col" className="py-2 pr-3">
                  Situação
                </th>
                <th scope="col" className="py-2 pr-3">
                  Entrega
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id} className="border-b border-stone-200 align-top dark:border-stone-800">
                  <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(m.criada_em)}</td>
                  <td className="py-2 pr-3">{m.canal === 'email' ? 'E-mail' : 'WhatsApp'}</td>
                  <td className="py-2 pr-3">{m.tipo}</td>
                  <td className="py-2 pr-3">{m.para}</td>
                  <td className="py-2 pr-3">
                    {SITUATION[m.situacao]}
                    {m.tentativas > 1 ? ` (${m.tentativas} tentativas)` : ''}
                    {m.situacao === 'failed' && m.erro ? (
                      <span className="block text-xs text-stone-600 dark:text-stone-400">{m.erro}</span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3">{deliveryText(m)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The numbers that receive no more WhatsApp: those that wrote PARAR and those staff recorded for a
 * request that came another way (phone, e-mail, the counter). Recording one is audited.
 */
export function OptOutSection() {
  const list = useWhatsAppOptOuts();
  const recordOptOut = useRecordWhatsAppOptOut();
  const [telefone, setTelefone] = useState('');
  const [motivo, setMotivo] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const rows = list.data ?? [];
  return (
    <section aria-labelledby="descadastros-whatsapp" className="mb-10">
      <h2 id="descadastros-whatsapp" className="mb-2 text-xl font-semibold">
        Quem não recebe mais WhatsApp
      </h2>
      <p className="mb-3 max-w-3xl text-sm text-stone-600 dark:text-stone-400">
        Quem responde PARAR entra aqui sozinho. Quando a pessoa pedir de outro jeito (telefone, e-mail, na
        loja), registre o número: a partir de agora ela não recebe mais mensagens, até marcar de novo a opção
        de receber pelo WhatsApp numa compra ou inscrição.
      </p>
      <form
        className="mb-4 grid max-w-3xl gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(null);
          recordOptOut.mutate(
            { telefone, motivo },
            {
              onSuccess: (row) => {
                setDone(`O número ${row.telefone} não recebe mais mensagens pelo WhatsApp.`);
                setTelefone('');
                setMotivo('');
              },
            },
          );
        }}
      >
        <FormField
          label="Número do WhatsApp"
          inputMode="tel"
          autoComplete="off"
          placeholder="(85) 99999-0000"
          value={telefone}
          onChange={(e) => setTelefone(e.target.value)}
          required
        />
        <FormField
          label="Como a pessoa pediu"
          placeholder="Ligou para a loja em 26/11"
          value={motivo}
          onChange={(e) => setMotivo(e.target.value)}
          maxLength={200}
          required
        />
        <button type="submit" disabled={recordOptOut.isPending} className={primaryButtonClass}>
          Registrar pedido
        </button>
      </form>
      <FormStatus
        message={recordOptOut.isError ? errorMessage(recordOptOut.error) : done}
        tone={recordOptOut.isError ? 'error' : 'success'}
      />
      {list.isError ? <p role="alert">{errorMessage(list.error)}</p> : null}
      {list.isSuccess && rows.length === 0 ? <p>Nenhum número pediu para parar.</p> : null}
      {rows.length ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">
              Números que não recebem mais WhatsApp, do pedido mais recente ao mais antigo
            </caption>
            <thead>
              <tr className="border-b border-stone-300 dark:border-stone-700">
                <th scope="col" className="py-2 pr-3">
                  Quando
                </th>
                <th scope="col" className="py-2 pr-3">
                  Número
                </th>
                <th scope="col" className="py-2 pr-3">
                  Pedido
                </th>
                <th scope="col" className="py-2 pr-3">
                  Registrado por
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.telefone} className="border-b border-stone-200 align-top dark:border-stone-800">
                  <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(o.pedido_em)}</td>
                  <td className="py-2 pr-3">{o.telefone}</td>
                  <td className="py-2 pr-3">{o.pedido}</td>
                  <td className="py-2 pr-3">
                    {o.origem === 'whatsapp' ? 'A pessoa, pelo WhatsApp' : (o.registrado_por ?? 'Equipe')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

export default function MessagesPage() {
  const previews = useMessagePreviews();
  const [chosen, setChosen] = useState('');
  const list = previews.data ?? [];
  const current = list.find((p) => p.tipo === chosen) ?? list[0];
  return (
    <section>
      <h1 className="mb-2 text-2xl font-bold">Mensagens</h1>
      <p className="mb-4 max-w-3xl text-sm text-stone-600 dark:text-stone-400">
        O registro das mensagens enviadas e a prévia de cada e-mail que a loja envia, com dados de exemplo: a
        versão em HTML (como aparece nos programas de e-mail, no modo claro ou escuro) e a versão em texto,
        que vai junto em toda mensagem.
      </p>
      <MessageLogSection />
      <OptOutSection />
      <MailLogoSection />
      <h2 className="mb-2 text-xl font-semibold">Prévias dos e-mails</h2>
      {previews.isError ? <p role="alert">{errorMessage(previews.error)}</p> : null}
      {previews.isPending ? <p>Carregando…</p> : null}
      {current ? (
        <>
          <div className="mb-4 max-w-md">
            <SelectField
              label="Mensagem"
              value={current.tipo}
              onChange={(e: { target: { value: string } }) => setChosen(e.target.value)}
            >
              {list.map((p) => (
                <option key={p.tipo} value={p.tipo}>
                  {p.nome}
                </option>
              ))}
            </SelectField>
          </div>
          {current.mensagens.map((m, index) => (
            <article
              key={`${current.tipo}-${m.para}`}
              aria-label={`${current.nome}: mensagem ${index + 1} de ${current.mensagens.length}`}
              className="mb-8"
            >
              <dl className="mb-3 grid max-w-3xl grid-cols-[auto_1fr] gap-x-3 text-sm">
                <dt className="font-medium">Para</dt>
                <dd>{m.para}</dd>
                <dt className="font-medium">Assunto</dt>
                <dd>{m.assunto}</dd>
                {m.anexos.length ? (
                  <>
                    <dt className="font-medium">Anexos</dt>
                    <dd>{m.anexos.map((a) => a.nome).join(', ')}</dd>
                  </>
                ) : null}
              </dl>
              <div className="grid gap-4 lg:grid-cols-2">
                <div>
                  <h2 className="mb-1 text-lg font-semibold">HTML</h2>
                  <iframe
                    title={`Prévia em HTML: ${m.assunto}`}
                    sandbox=""
                    srcDoc={m.html}
                    className="h-[640px] w-full rounded-md border border-stone-300 bg-white dark:border-stone-700"
                  />
                </div>
                <div>
                  <h2 className="mb-1 text-lg font-semibold">Texto</h2>
                  {/* A scrollable region: focusable so the keyboard can scroll it. */}
                  <section
                    aria-label={`Versão em texto: ${m.assunto}`}
                    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
                    tabIndex={0}
                    className="h-[640px] overflow-auto rounded-md border border-stone-300 p-3 dark:border-stone-700"
                  >
                    <pre className="whitespace-pre-wrap text-sm">{m.texto}</pre>
                  </section>
                </div>
              </div>
            </article>
          ))}
        </>
      ) : null}
    </section>
  );
}
