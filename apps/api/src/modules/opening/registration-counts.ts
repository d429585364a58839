import type { Db, Tx } from '../../db/client.ts';

type Conn = Db | Tx;

/**
 * What stands against an opening's limits, counted by the module that owns registrations and knows
 * their charges' drafts (docs/architecture.md §9, rule 11): it registers after this one and installs its
 * queries at start (`app.opening.setRegistrationCounts`). Each answer is one statement, in the caller's
 * transaction (the gate's, under its advisory locks).
 */
export interface RegistrationCounts {
  /**
   * The CPF's registrations standing, the places being paid for it and the transfers to it being paid
   * (`handing`: the registration being handed over right now, whose own transfer's charges count once).
   */
  countForCpf(db: Conn, eventId: number, cpf: string, handing?: number): Promise<number>;
  /** What one account holds, pays for and is paying transfers of in the event. */
  countForBuyer(db: Conn, eventId: number, userId: number): Promise<number>;
  /** The event's registrations standing and runners being paid for (the back office's live figures). */
  countOfEvent(db: Conn, eventId: number): Promise<{ paid: number; paying: number }>;
  /** Of these CPFs, those with a registration standing in the event (the lottery's winners who paid). */
  standingCpfs(db: Conn, eventId: number, cpfs: readonly string[]): Promise<Set<string>>;
  /**
   * Per category: the runners waiting in its waitlist, and the places left but held for someone (the
   * waitlist's offers, the teams' quotas, docs/decisions/0076): a draw never gives those away.
   */
  heldPlaces(
    db: Conn,
    categoryIds: readonly number[],
  ): Promise<Map<number, { waiting: number; offers: number }>>;
}

/**
 * The counts the services use, answered by whatever registrations installed. Asked before that (a
 * module left out of the app), it fails rather than count nothing and let every limit pass.
 */
export function registrationCountsSlot(): RegistrationCounts & { install(counts: RegistrationCounts): void } {
  let installed: RegistrationCounts | undefined;
  const counts = () => {
    if (!installed) throw new Error('Abertura: as contagens de inscrições não foram instaladas.');
    return installed;
  };
  return {
    install(c) {
      installed = c;
    },
    countForCpf: (db, eventId, cpf, handing) => counts().countForCpf(db, eventId, cpf, handing),
    countForBuyer: (db, eventId, userId) => counts().countForBuyer(db, eventId, userId),
    countOfEvent: (db, eventId) => counts().countOfEvent(db, eventId),
    standingCpfs: (db, eventId, cpfs) => counts().standingCpfs(db, eventId, cpfs),
    heldPlaces: (db, ids) => counts().heldPlaces(db, ids),
  };
}
