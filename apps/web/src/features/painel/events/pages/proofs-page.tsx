import { formatIsoDateBR, formatStoreDateTime } from '@passada/core/calendar';
import type { ProofReview } from '@passada/core/contracts/price-rules';
import { formatCpf } from '@passada/core/documents';
import { PRICE_RULE_AUDIENCE_LABELS } from '@passada/core/price-rules';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import {
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import { formatReais } from '../../../../components/price.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useDecideProof, useProofFile, useProofQueue } from '../api/price-rules.ts';

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

const STATUS_LABELS: Record<ProofReview['situacao'], string> = {
  pendente: 'Pendentes',
  aprovado: 'Aprovados',
  recusado: 'Recusados',
};

/**
 * `/painel/comprovantes` (docs/decisions/0068): the proofs of special prices, the document beside the
 * runner's data; approve, or refuse with a reason the runner receives by e-mail. Read only by who holds
 * `comprovantes` (a PCD document is health data).
 */
export default function ProofsPage() {
  const [status, setStatus] = useState<ProofReview['situacao']>('pendente');
  const queue = useProofQueue(status);
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Comprovantes de preço especial</h1>
      <p className="text-sm">
        Estudantes, professores, pessoas com deficiência e listas do organizador enviam o comprovante antes de
        pagar. Confira o documento ao lado dos dados da inscrição. Uma recusa vai ao participante por e-mail
        com o motivo: até a largada, ele paga no site a diferença para o preço do lote ou cancela com
        devolução integral. Passado o prazo de análise sem decisão, o preço especial vale.
      </p>
      <div className="max-w-xs">
        <SelectField
          label="Situação"
          value={status}
          onChange={(e) => setStatus(e.target.value as ProofReview['situacao'])}
        >
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
      </div>
      {queue.error ? <FormStatus message={errorMessage(queue.error)} tone="error" /> : null}
      {queue.data?.length === 0 ? <p>Nenhum comprovante {STATUS_LABELS[status].toLowerCase()}.</p> : null}
      {queue.data?.map((proof) => (
        <ProofCard key={proof.id} proof={proof} />
      ))}
    </section>
  );
}

function ProofCard({ proof }: { proof: ProofReview }) {
  const titleId = useId();
  const decide = useDecideProof();
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  // Past the rule's review time the special price stands: only an approval is left (the server says so too).
  const overdue = proof.prazo !== null && new Date(proof.prazo).getTime() <= Date.now();
  const send = (body: Parameters<typeof decide.mutate>[0]['body']) =>
    decide.mutate(
      { id: proof.id, body },
      { onSuccess: (after) => setMessage(after.situacao === 'aprovado' ? 'Aprovado.' : 'Recusado.') },
    );
  return (
    <article aria-labelledby={titleId} className={`${card} grid gap-4 md:grid-cols-2`}>
      <div className="flex flex-col gap-2">
        <h2 id={titleId} className="text-lg font-semibold">
          {proof.nome_completo}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="font-medium">Preço especial</dt>
          <dd>
            {proof.regra.nome} ({PRICE_RULE_AUDIENCE_LABELS[proof.regra.publico]})
          </dd>
          <dt className="font-medium">Evento</dt>
          <dd>{proof.evento.nome}</dd>
          <dt className="font-medium">Categorias</dt>
          <dd>{proof.categorias.join(', ')}</dd>
          <dt className="font-medium">CPF</dt>
          <dd>{formatCpf(proof.cpf)}</dd>
          <dt className="font-medium">Nascimento</dt>
          <dd>{formatIsoDateBR(proof.data_nascimento)}</dd>
          <dt className="font-medium">Pago</dt>
          <dd>{formatReais(proof.pago)}</dd>
          <dt className="font-medium">Prazo da análise</dt>
          <dd>{proof.prazo ? formatStoreDateTime(new Date(proof.prazo)) : '—'}</dd>
          {proof.analisado_por ? (
            <>
              <dt className="font-medium">Analisado por</dt>
              <dd>
                {proof.analisado_por}
                {proof.analisado_em ? ` em ${formatStoreDateTime(new Date(proof.analisado_em))}` : ''}
              </dd>
            </>
          ) : null}
          {proof.motivo ? (
            <>
              <dt className="font-medium">Motivo da recusa</dt>
              <dd>{proof.motivo}</dd>
            </>
          ) : null}
        </dl>
        <p className="text-sm">
          <Link to={`/painel/inscricoes/${proof.inscricao}`} className={linkClass}>
            Inscrição nº {proof.inscricao}
          </Link>
        </p>
        {proof.situacao === 'pendente' ? (
          <div className="flex flex-col gap-2">
            {refusing ? (
              <>
                <TextAreaField
                  label={`Motivo da recusa do comprovante de ${proof.nome_completo}`}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  rows={3}
                />
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={primaryButtonClass}
                    disabled={decide.isPending}
                    onClick={() => send({ decisao: 'recusar', motivo: reason })}
                  >
                    Confirmar recusa
                  </button>
                  <button type="button" className={secondaryButtonClass} onClick={() => setRefusing(false)}>
                    Voltar
                  </button>
                </div>
              </>
            ) : (
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={primaryButtonClass}
                  disabled={decide.isPending}
                  onClick={() => send({ decisao: 'aprovar' })}
                >
                  Aprovar o comprovante de {proof.nome_completo}
                </button>
                {overdue ? (
                  <p className="text-sm">
                    O prazo de análise terminou: o preço especial vale e não pode mais ser recusado. Confira o
                    documento na retirada do kit.
                  </p>
                ) : (
                  <button type="button" className={secondaryButtonClass} onClick={() => setRefusing(true)}>
                    Recusar o comprovante de {proof.nome_completo}
                  </button>
                )}
              </div>
            )}
          </div>
        ) : null}
        <FormStatus
          message={decide.error ? errorMessage(decide.error) : message}
          tone={decide.error ? 'error' : 'success'}
        />
      </div>
      <ProofDocument proof={proof} />
    </article>
  );
}

/** The document itself, fetched with the back office's token: a photo shown, a PDF opened in a tab. */
function ProofDocument({ proof }: { proof: ProofReview }) {
  const file = useProofFile(proof.arquivo);
  const [url, setUrl] = useState<string | null>(null);
  const blob = file.data?.blob ?? null;
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  if (!proof.arquivo) return <p className="text-sm">Sem arquivo: peça o documento ao participante.</p>;
  if (file.isPending) return <p className="text-sm">Carregando o comprovante…</p>;
  if (!blob || !url) return <FormStatus message="Não foi possível abrir o comprovante." tone="error" />;
  return proof.tipo === 'application/pdf' ? (
    <p className="text-sm">
      <a href={url} target="_blank" rel="noreferrer" className={linkClass}>
        Abrir o PDF do comprovante de {proof.nome_completo}
      </a>
    </p>
  ) : (
    <img src={url} alt={`Comprovante de ${proof.nome_completo}`} className="max-h-96 w-auto rounded border" />
  );
}
