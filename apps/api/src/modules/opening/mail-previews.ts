import type { MailPreview } from '../../providers/mail/index.ts';
import { type LotteryMailKind, lotteryMail } from './lottery-mail.ts';

const event = { name: 'Corrida do Sol Nascente', startDate: '2026-12-13', time: '05:30' };

const LABELS: Record<LotteryMailKind, string> = {
  inscrito: 'Sorteio: inscrição confirmada',
  sorteado: 'Sorteio: sorteado(a), com o prazo para pagar',
  nao_sorteado: 'Sorteio: resultado para quem não foi sorteado',
};

/** The lottery's e-mails (docs/decisions/0051), with demo data, for the back office's message previews. */
export const lotteryMailPreviews: MailPreview[] = (['inscrito', 'sorteado', 'nao_sorteado'] as const).map(
  (kind): MailPreview => ({
    kind: `sorteio.${kind.replace('_', '-')}`,
    label: LABELS[kind],
    build: (env) => [
      lotteryMail({
        env,
        kind,
        entry: {
          id: 1207,
          fullName: 'Ana Exemplo',
          email: 'ana@example.com',
          payBy: kind === 'sorteado' ? new Date('2026-12-02T15:00:00Z') : null,
        },
        event,
        categoryName: '10 km',
        entriesUntil: new Date('2026-11-30T23:00:00Z'),
        page: `${env.publicUrl}/eventos/register/7`,
      }),
    ],
  }),
);
