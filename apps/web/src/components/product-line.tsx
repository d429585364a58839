import type { ReactNode } from 'react';

/**
 * Thumbnail, name and "Cor · Tamanho · Quantidade" of one bought item, as the order review and the
 * order history show it. Returns its two parts without a wrapper so each list lays out the row.
 */
export function ProductLineSummary(props: {
  image: string;
  name: string;
  color: string;
  size: string;
  quantity: number;
  /** Thumbnail edge in CSS pixels. */
  imageSize: 56 | 64;
  children?: ReactNode;
}) {
  return (
    <>
      <img
        src={props.image}
        alt=""
        width={props.imageSize}
        height={props.imageSize}
        className={`${props.imageSize === 64 ? 'size-16' : 'size-14'} rounded-md bg-stone-100 object-contain dark:bg-stone-800`}
      />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{props.name}</p>
        <p className="text-sm text-stone-700 dark:text-stone-300">
          Cor: {props.color} · Tamanho: {props.size} · Quantidade: {props.quantity}
        </p>
        {props.children}
      </div>
    </>
  );
}
