import {
  decideOfflineScan,
  decideOfflineTicket,
  type OfflineDecision,
  searchSnapshot,
} from '@passada/core/checkin-offline';
import type { CheckinPreview, PainelParticipant } from '@passada/core/contracts/painel';
import type { DeskTicket } from '@passada/core/contracts/painel-checkin-desk';
import { formatIsoDateBR } from '@passada/core/events';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormField,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { formatDateTime } from '../../../../lib/format.ts';
import { useCheckinEvents } from '../../shell/api/event-lists.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  type CheckinTarget,
  useCheckin,
  useCheckinPreview,
  useCheckinSearch,
  useUndoCheckin,
} from '../api/participants.ts';
import { PreviewCard } from '../components/checkin-preview-card.tsx';
import { DeskStatus, OfflinePreviewCard } from '../components/offline-desk.tsx';
import type { PickupAnswer } from '../components/pickup-choice.tsx';
import { QrScanner } from '../components/qr-scanner.tsx';
import { TeamKits } from '../components/team-kits.tsx';
import { installDeskApp } from '../offline/install-desk-app.ts';
import { useOfflineDesk } from '../offline/use-offline-desk.ts';
import { raceLabel } from '../utils/race-label.ts';

/**
 * Race-day kit pickup on a phone (docs/decisions/0026). `/painel/checkin` chooses the event;
 * `/painel/checkin/:eventId` is that event's desk: scan the signed QR (or let a handheld scanner type
 * it), or search by name, CPF, number or bib; see who it is; only then confirm. A pickup can be undone with
 * a reason. Without the network the desk decides from its local copy and sends its pickups when the
 * network returns (docs/decisions/0063).
 */
export default function CheckinPage() {
  const { eventId } = useParams();
  const id = Number(eventId);
  const events = useCheckinEvents();
  if (!(Number.isInteger(id) && id > 0)) return <ChooseEvent />;
  // A volunteer opening another event's desk is refused here as the server refuses its calls.
  if (events.data && !events.data.some((e) => e.id === id)) {
    return (
      <p role="alert" className="max-w-lg rounded-md border border-stone-300 p-4 dark:border-stone-700">
        Você não está designado para o check-in deste evento.{' '}
        <Link to="/painel/checkin" className={linkClass}>
          Ver os seus eventos
        </Link>
      </p>
    );
  }
  return <CheckinDesk eventId={id} />;
}

function ChooseEvent() {
  const events = useCheckinEvents();
  return (
    <section className="max-w-lg">
      <h1 className="mb-4 text-2xl font-bold">Check-in: retirada de kits</h1>
      <p className="mb-3">Escolha o evento: cada tela de check-in entrega só os kits daquele evento.</p>
      {events.isError ? <p role="alert">{errorMessage(events.error)}</p> : null}
      <ul className="flex flex-col gap-2">
        {events.data?.map((e) => (
          <li key={e.id} className="rounded-lg border border-stone-300 p-3 dark:border-stone-700">
            <Link
              to={`/painel/checkin/${e.id}`}
              className={linkClass}
              aria-label={`Abrir o check-in de ${e.nome_evento}`}
            >
              {e.nome_evento}
            </Link>
            <p className="text-sm">{formatIsoDateBR(e.start_data_evento)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What identifies the registration on screen: the scanned ticket, or the number a search found. */
type Target = CheckinTarget;
type Notice = { tone: 'ok' | 'error'; message: string };

const box = {
  ok: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100',
  error: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
};

function CheckinDesk({ eventId }: { eventId: number }) {
  const events = useCheckinEvents();
  const event = events.data?.find((e) => e.id === eventId);
  const [camera, setCamera] = useState(false);
  const [code, setCode] = useState('');
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<PainelParticipant[] | null>(null);
  const [target, setTarget] = useState<Target | null>(null);
  const [preview, setPreview] = useState<CheckinPreview | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const previewCheckin = useCheckinPreview(eventId);
  const checkin = useCheckin(eventId);
  const undoCheckin = useUndoCheckin(eventId);
  const searchCheckin = useCheckinSearch(eventId);
  const desk = useOfflineDesk(eventId);
  const [offline, setOffline] = useState<Exclude<OfflineDecision, { kind: 'recusado' }> | null>(null);
  const [offlineFound, setOfflineFound] = useState<DeskTicket[] | null>(null);
  // Installable, and opened again without the network (the manifest and the desk's service worker).
  useEffect(() => installDeskApp(), []);

  /** Without the network: the local copy decides, as the server would. */
  const showOffline = async (decision: Promise<OfflineDecision> | OfflineDecision) => {
    setPreview(null);
    const d = await decision;
    if (d.kind === 'recusado') {
      setOffline(null);
      setNotice({ tone: 'error', message: d.message });
    } else {
      setNotice(null);
      setOffline(d);
    }
  };
  const handOutOffline = (t: DeskTicket, answer: PickupAnswer) =>
    run(async () => {
      await desk.handOut(t.id, t.nome, answer);
      setOffline(null);
      setNotice({
        tone: 'ok',
        message: `Kit entregue sem rede: ${t.nome}. A retirada será enviada quando a rede voltar.`,
      });
    });

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      setNotice({ tone: 'error', message: errorMessage(error) });
      // Another desk got there first (picked up, undone, cancelled): the card shows it as it is now.
      const now =
        error instanceof ApiRequestError
          ? (error.body as unknown as { participante?: PainelParticipant } | null)?.participante
          : undefined;
      if (now) refreshed(now);
    } finally {
      setBusy(false);
    }
  };

  /** First step: who it is. Nothing changes on the server. */
  const show = (next: Target) =>
    run(async () => {
      setNotice(null);
      setPreview(null);
      setReason('');
      setTarget(next);
      setPreview(await previewCheckin.mutateAsync(next));
    });

  const refreshed = (p: PainelParticipant) =>
    setPreview((current) =>
      current
        ? {
            ...current,
            participante: p,
            situacao: p.cancelamento ? 'cancelada' : p.retirada ? 'retirado' : 'pode_retirar',
          }
        : current,
    );

  /** Second step, explicit: the kit goes out. */
  const confirm = (answer: PickupAnswer) =>
    run(async () => {
      if (!target) return;
      const p = await checkin.mutateAsync({ ...target, ...answer });
      refreshed(p);
      setFound((list) => list?.map((x) => (x.id === p.id ? p : x)) ?? null);
      setNotice({ tone: 'ok', message: `Kit entregue: ${p.nome_completo}.` });
    });

  const undo = (event: FormEvent) => {
    event.preventDefault();
    const p = preview?.participante;
    if (!p?.retirada) return;
    const at = p.retirada.at;
    void run(async () => {
      const back = await undoCheckin.mutateAsync({ inscricao: p.id, retirada_em: at, motivo: reason });
      refreshed(back);
      setFound((list) => list?.map((x) => (x.id === back.id ? back : x)) ?? null);
      setReason('');
      setNotice({ tone: 'ok', message: `Retirada desfeita: ${back.nome_completo}.` });
    });
  };

  const find = (event: FormEvent) => {
    event.preventDefault();
    if (!desk.online) {
      setFound(null);
      setOfflineFound(searchSnapshot(desk.index, search));
      return;
    }
    void run(async () => {
      setNotice(null);
      setOfflineFound(null);
      setFound(await searchCheckin.mutateAsync(search));
    });
  };

  return (
    <section className="max-w-lg">
      <h1 className="text-2xl font-bold">Check-in: retirada de kits</h1>
      <p className="mb-4">
        Evento: <strong>{event?.nome_evento ?? `nº ${eventId}`}</strong> ·{' '}
        <Link to="/painel/checkin" className={linkClass}>
          Trocar de evento
        </Link>
      </p>
      <DeskStatus desk={desk} />
      {notice ? (
        <div
          role={notice.tone === 'ok' ? 'status' : 'alert'}
          className={`mb-4 rounded-lg p-4 ${box[notice.tone]}`}
        >
          <p className="text-lg font-semibold">{notice.message}</p>
        </div>
      ) : null}
      {preview ? (
        <PreviewCard
          // Another registration starts with its own answers (who collects, the item).
          key={preview.participante.id}
          preview={preview}
          busy={busy}
          reason={reason}
          onReason={setReason}
          onConfirm={confirm}
          onUndo={undo}
          onClose={() => {
            setPreview(null);
            setNotice(null);
          }}
        />
      ) : null}
      {offline ? (
        <OfflinePreviewCard
          key={offline.ticket.id}
          decision={offline}
          lottery={desk.snapshot?.confira_cpf ?? false}
          item={desk.snapshot?.item}
          onConfirm={(t, answer) => void handOutOffline(t, answer)}
          onClose={() => {
            setOffline(null);
            setNotice(null);
          }}
        />
      ) : null}
      <button type="button" className={`${secondaryButtonClass} mb-4`} onClick={() => setCamera(!camera)}>
        {camera ? 'Fechar câmera' : 'Ler QR code com a câmera'}
      </button>
      {camera ? (
        <QrScanner
          onCode={(codigo) =>
            void (desk.online
              ? show({ codigo })
              : showOffline(decideOfflineScan(eventId, desk.index, codigo, desk.pending)))
          }
        />
      ) : null}
      <form
        className="mt-4 flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const codigo = code.trim();
          if (codigo && desk.online) void show({ codigo });
          else if (codigo) void showOffline(decideOfflineScan(eventId, desk.index, codigo, desk.pending));
          setCode('');
        }}
      >
        <div className="flex-1">
          <FormField
            label="Código do QR code (leitor ou colado)"
            autoComplete="off"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          Ver inscrição
        </button>
      </form>
      <form onSubmit={find} className="mt-4 flex items-end gap-2">
        <div className="flex-1">
          <FormField
            label="Nome, CPF, nº da inscrição ou de peito"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          Buscar
        </button>
      </form>
      {found?.length === 0 || offlineFound?.length === 0 ? (
        <p className="mt-3">Ninguém encontrado neste evento.</p>
      ) : null}
      <ul className="mt-3 flex flex-col gap-2">
        {offlineFound?.map((t) => (
          <li key={t.id} className="rounded-lg border border-stone-300 p-3 dark:border-stone-700">
            <p className="font-semibold">
              {t.nome} <span className="font-normal">(nº {t.id})</span>
            </p>
            <p className="text-sm">
              CPF {t.cpf} · {t.categorias.map(raceLabel).join(', ')}
            </p>
            <button
              type="button"
              className={`${secondaryButtonClass} mt-2`}
              onClick={() => {
                setOfflineFound(null);
                void showOffline(decideOfflineTicket(t, desk.pending));
              }}
              aria-label={`Ver inscrição de ${t.nome}`}
            >
              Ver inscrição
            </button>
          </li>
        ))}
      </ul>
      <ul className="mt-3 flex flex-col gap-2">
        {found?.map((p) => (
          <li key={p.id} className="rounded-lg border border-stone-300 p-3 dark:border-stone-700">
            <p className="font-semibold">
              {p.nome_completo} <span className="font-normal">(nº {p.id})</span>
            </p>
            <p className="text-sm">
              CPF {p.cpf} · {p.categorias.map(raceLabel).join(', ')}
            </p>
            <p className="text-sm">
              {p.cancelamento
                ? `Inscrição cancelada em ${formatDateTime(p.cancelamento.em)}.`
                : p.retirada
                  ? `Retirado em ${formatDateTime(p.retirada.at)} por ${p.retirada.staff_name}`
                  : 'Kit não retirado'}
            </p>
            <button
              type="button"
              className={`${secondaryButtonClass} mt-2`}
              onClick={() => void show({ inscricao: p.id })}
              aria-label={`Ver inscrição de ${p.nome_completo}`}
            >
              Ver inscrição
            </button>
          </li>
        ))}
      </ul>
      {desk.online ? <TeamKits eventId={eventId} /> : null}
    </section>
  );
}
