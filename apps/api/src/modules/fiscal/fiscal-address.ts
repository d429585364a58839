import { NO_NUMBER } from '@passada/core/address';
import type { OrderAddress } from '@passada/core/contracts/orders';
import type { FiscalAddress } from '../../providers/invoicing/index.ts';
import { ibgeCityCode } from './city-codes.ts';

/** Splits "Rua X, 123" into street and number; "S/N" when the address has none. */
function splitStreet(street: string): { street: string; number: string } {
  const m = /^(.*?),\s*(\d+[A-Za-z]?|S\/?N)\b(.*)$/i.exec(street.trim());
  if (!m) return { street: street.trim(), number: NO_NUMBER };
  return { street: `${m[1]}${m[3] ?? ''}`.replace(/\s+,/g, ',').trim(), number: m[2]!.toUpperCase() };
}

/**
 * An order's address as a nota writes it: the number from its own field (orders kept before it had one
 * carry it in the street), the complement, and the city's IBGE code from its name and state ('' when
 * IBGE's list does not know it).
 */
export function fiscalAddressOf(a: OrderAddress): FiscalAddress {
  const own = a.number?.trim();
  const { street, number } = own ? { street: a.street.trim(), number: own } : splitStreet(a.street);
  const uf = a.state.trim().toUpperCase();
  const complement = a.complement?.trim();
  return {
    street,
    number,
    ...(complement ? { complement } : {}),
    district: a.neighborhood,
    city: a.city,
    cityCode: ibgeCityCode(a.city, uf) ?? '',
    uf,
    cep: a.zip_code.replace(/\D/g, ''),
  };
}
