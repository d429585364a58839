import type { Tx } from '../../db/client.ts';
import type { AppJobCatalog, JobName } from '../../jobs/job-catalog.ts';

/** An account being erased, as the modules that keep its data need it (docs/decisions/0057). */
export interface ErasedAccount {
  userId: number;
  /** The account's e-mail when its owner confirmed it: what was given with it is then theirs. */
  confirmedEmail: string | null;
}

/** The sales records' legal period (decision 0050): records of before `date` lose their personal data. */
export interface SalesCutoff {
  /** `aaaa-01-01` in the store's calendar. */
  date: string;
  /** The first instant of `date` in the store's time zone. */
  before: Date;
  now: Date;
}

/** What one module's sales-records step changed: counts by the audit line's names, and the charges paid. */
export interface SalesRecordsErased {
  counts: Record<string, number>;
  chargeIds: number[];
}

/**
 * When the nightly retention jobs run, in the store's time zone: accounts keeps the schedule, the module
 * owning the data registers what each job does (docs/decisions/0061).
 */
export const RETENTION_SCHEDULE = {
  'privacy.retention': '30 3 * * *',
  'privacy.health-data': '45 3 * * *',
  'privacy.runner-data': '50 3 * * *',
  'privacy.lottery-data': '52 3 * * *',
  'privacy.sales-retention': '55 3 * * *',
} as const satisfies Partial<Record<JobName<AppJobCatalog>, string>>;

export type RetentionJob = keyof typeof RETENTION_SCHEDULE;

/**
 * What a module does with the personal data of the tables it owns, asked by accounts as pretix's data
 * shredders are: nobody erases another module's rows. Each hook runs in the caller's transaction.
 */
export interface PersonalDataOwner {
  /** The module, in logs. */
  module: string;
  /** An account erased: what of it the module keeps goes (its rows, or their personal fields). */
  forgetAccount?: (tx: Tx, account: ErasedAccount) => Promise<void>;
  /** The sales records past their legal period: personal fields blanked, amounts kept. */
  eraseSalesRecords?: (tx: Tx, cutoff: SalesCutoff) => Promise<SalesRecordsErased>;
}

/**
 * The payer's side, asked after every other owner: a module's erasure may still need a charge's draft
 * (a lottery winner paying is found by its CPF) that forgetting the charge clears.
 */
export interface ChargesOwner {
  forgetAccount: (tx: Tx, userId: number) => Promise<void>;
  forgetCharges: (tx: Tx, chargeIds: number[]) => Promise<void>;
}

/** Who keeps personal data, registered at start by each module (accounts' `personalData`). */
export interface PersonalDataOwners {
  register(owner: PersonalDataOwner): void;
  registerCharges(owner: ChargesOwner): void;
  /** Every owner forgets the account, the charges last. */
  forgetAccount(tx: Tx, account: ErasedAccount): Promise<void>;
  /** Every owner erases its sales records of before the cutoff; answers the counts and charges, the charges forgotten. */
  eraseSalesRecords(tx: Tx, cutoff: SalesCutoff): Promise<SalesRecordsErased>;
}

export function createPersonalDataOwners(): PersonalDataOwners {
  const owners: PersonalDataOwner[] = [];
  let chargesOwner: ChargesOwner | null = null;
  return {
    register(owner) {
      if (owners.some((o) => o.module === owner.module))
        throw new Error(`Dados pessoais: o módulo ${owner.module} já está registrado`);
      owners.push(owner);
    },
    registerCharges(owner) {
      chargesOwner = owner;
    },
    async forgetAccount(tx, account) {
      for (const owner of owners) await owner.forgetAccount?.(tx, account);
      await chargesOwner?.forgetAccount(tx, account.userId);
    },
    async eraseSalesRecords(tx, cutoff) {
      const counts: Record<string, number> = {};
      const chargeIds = new Set<number>();
      for (const owner of owners) {
        if (!owner.eraseSalesRecords) continue;
        const erased = await owner.eraseSalesRecords(tx, cutoff);
        Object.assign(counts, erased.counts);
        for (const id of erased.chargeIds) chargeIds.add(id);
      }
      const ids = [...chargeIds].sort((a, b) => a - b);
      await chargesOwner?.forgetCharges(tx, ids);
      return { counts, chargeIds: ids };
    },
  };
}

/** What an erased person is called from then on, wherever a name column is required. */
export const ERASED_NAME = 'Dados apagados';
