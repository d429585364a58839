import type { ShippingPackage } from '../../providers/shipping/shipping.provider.ts';

/** Priced when the calculator is used without a cart: one typical folded garment in its bag. */
export const TYPICAL_PACKAGE: ShippingPackage = { weightGrams: 300, lengthCm: 24, widthCm: 16, heightCm: 4 };

/**
 * One box for several items: weights add up; the box keeps the largest footprint and is as tall as the
 * items' total volume needs (garments fold flat and stack).
 */
export function combinePackages(lines: Array<{ pkg: ShippingPackage; quantity: number }>): ShippingPackage {
  if (!lines.length) return TYPICAL_PACKAGE;
  let weightGrams = 0;
  let volume = 0;
  let lengthCm = 0;
  let widthCm = 0;
  for (const { pkg, quantity } of lines) {
    weightGrams += pkg.weightGrams * quantity;
    volume += pkg.lengthCm * pkg.widthCm * pkg.heightCm * quantity;
    lengthCm = Math.max(lengthCm, pkg.lengthCm, pkg.widthCm);
    widthCm = Math.max(widthCm, Math.min(pkg.lengthCm, pkg.widthCm));
  }
  return { weightGrams, lengthCm, widthCm, heightCm: Math.max(1, Math.ceil(volume / (lengthCm * widthCm))) };
}
