import { streetLine } from '@passada/core/address';
import { formatCep } from '@passada/core/cep';
import type { Address } from '@passada/core/contracts/accounts';
import { formatPhone } from '@passada/core/phone';
import * as RadioGroup from '@radix-ui/react-radio-group';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog, useAlert } from '../../../components/dialog.tsx';
import { linkClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { addressesQueryKey, deleteAddress, useAddresses } from '../../../lib/accounts-api.ts';
import { readJson, StorageKeys, writeJson } from '../../../lib/storage.ts';

/**
 * The shipping chosen on the review page, once there is one: no price is shown before a choice, and
 * the stored choice goes with the order (clearCheckout), so an old cart's price never shows here.
 */
function shippingLabel(): string | null {
  const stored = readJson<unknown>(StorageKeys.shipping, null);
  if (!stored || typeof stored !== 'object' || !('servico' in stored)) return null;
  const service = stored.servico;
  const price =
    service === 'PAC' && 'precoFinalPAC' in stored
      ? stored.precoFinalPAC
      : service === 'SEDEX' && 'precoFinalSEDEX' in stored
        ? stored.precoFinalSEDEX
        : null;
  if (typeof price !== 'string') return null;
  // The spec's label: "Frete: Grátis" when nothing is charged, else the service and its price. Before a
  // choice nothing is said: the shop has no free shipping to promise.
  return /^0+(,0+)?$/.test(price.trim()) ? 'Frete: Grátis' : `Frete ${service}: R$ ${price}`;
}

function AddressList({ addresses }: { addresses: Address[] }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [alertElement, showAlert] = useAlert();
  const [picked, setPicked] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState(false);
  const [confirming, setConfirming] = useState<Address | null>(null);
  const shipping = shippingLabel();
  const primary = addresses.find((a) => a.is_primary);
  const chosen = picked ?? (primary ? String(primary.id) : '');

  const remove = async (id: number) => {
    setDeleteError(false);
    try {
      await deleteAddress(id);
      if (picked === String(id)) setPicked(null);
      await queryClient.invalidateQueries({ queryKey: addressesQueryKey });
    } catch {
      setDeleteError(true);
    }
  };

  const proceed = () => {
    const address = addresses.find((a) => String(a.id) === chosen);
    if (!address) {
      showAlert('Por favor, escolha um endereço para entrega.');
      return;
    }
    writeJson(StorageKeys.chosenAddress, address);
    navigate('/revisar-pedido');
  };

  return (
    <>
      {addresses.length === 0 ? (
        <p className="text-stone-600 dark:text-stone-400">Você ainda não cadastrou nenhum endereço.</p>
      ) : (
        <RadioGroup.Root
          value={chosen}
          onValueChange={setPicked}
          aria-label="Endereço de entrega"
          className="flex flex-col gap-3"
        >
          {addresses.map((a) => {
            const labelId = `endereco-${a.id}`;
            return (
              <div
                key={a.id}
                className="flex items-start gap-3 rounded-xl border border-stone-200 p-4 has-[[data-state=checked]]:border-brand-700 dark:border-stone-800"
              >
                <RadioGroup.Item
                  value={String(a.id)}
                  aria-labelledby={labelId}
                  className="mt-1 flex size-5 shrink-0 items-center justify-center rounded-full border-2 border-stone-400 focus-visible:outline-2 focus-visible:outline-brand-700 data-[state=checked]:border-brand-700"
                >
                  <RadioGroup.Indicator className="size-2.5 rounded-full bg-brand-700" />
                </RadioGroup.Item>
                <div className="min-w-0 flex-1">
                  <p id={labelId} className="font-semibold">
                    {a.full_name}
                    {a.is_primary ? ' (principal)' : ''}, {streetLine(a)}
                  </p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    {a.neighborhood}, {a.city} - {a.state},{' '}
                    <span className="whitespace-nowrap">CEP {formatCep(a.zip_code)}</span> ·{' '}
                    <span className="whitespace-nowrap">{formatPhone(a.phone)}</span>
                  </p>
                </div>
                <div className="flex shrink-0 gap-2">
                  <Link
                    to={`/editar-endereco/${a.id}`}
                    className={secondaryButtonClass}
                    aria-label={`Editar ${streetLine(a)}`}
                  >
                    Editar
                  </Link>
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    aria-label={`Excluir ${streetLine(a)}`}
                    onClick={() => setConfirming(a)}
                  >
                    Excluir
                  </button>
                </div>
              </div>
            );
          })}
        </RadioGroup.Root>
      )}
      {deleteError ? (
        <p role="alert" className="mt-3 text-red-700 dark:text-red-400">
          Erro ao excluir o endereço.
        </p>
      ) : null}
      {shipping ? <p className="mt-4 font-medium">{shipping}</p> : null}
      <div className="mt-6 flex flex-wrap items-center gap-4">
        <Link to="/adicionar-endereco" className={linkClass}>
          Adicionar endereço
        </Link>
        <button type="button" className={primaryButtonClass} onClick={proceed}>
          Continuar
        </button>
      </div>
      <ConfirmDialog
        question={confirming ? `Excluir o endereço ${streetLine(confirming)}?` : null}
        confirmLabel="Excluir"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const target = confirming;
          setConfirming(null);
          if (target) void remove(target.id);
        }}
      />
      {alertElement}
    </>
  );
}

function Addresses() {
  const query = useAddresses();
  if (query.isPending) return <p role="status">Carregando…</p>;
  if (query.isError) {
    return (
      <p role="alert" className="text-red-700 dark:text-red-400">
        Erro ao buscar os endereços.
      </p>
    );
  }
  return <AddressList addresses={query.data} />;
}

/** /enderecos: choose the delivery address for the order (spec §2, §5). */
export default function AddressesPage() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="mb-6 text-2xl font-bold">Endereço de entrega</h1>
      <Addresses />
    </main>
  );
}
