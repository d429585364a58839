import { z } from '../zod.ts';

/**
 * The version of a record a back-office form was opened with (`versao` on the wire): GET sends it, a
 * save sends it back, and a save whose version is no longer the stored one is refused with 409
 * `versao_desatualizada` (docs/decisions/0025-edit-versions-and-money-roles.md).
 */
export const EditVersionSchema = z
  .number({ error: 'Recarregue a página: falta a versão do registro que você abriu.' })
  .int()
  .positive();

/** The code of the 409 a save from a stale form gets; the forms offer to reload on it. */
export const STALE_VERSION_CODE = 'versao_desatualizada';
